/// How long an ``EventLoop`` polls its sockets without sleeping once it has nothing to do: Linux's `haltpoll`
/// cpuidle governor's rule, applied to `epoll_wait` in user space (decision 0037).
///
/// Sleeping in `epoll_wait` and being woken costs the loop two context switches, and on a virtual machine an idle
/// CPU's halt and wake-up besides. When work comes back within microseconds (the answer of a server on the same
/// machine or network, a task the loop just resumed sending its next request), polling a little longer is
/// cheaper. The limit adapts to what the loop saw: it grows (doubling, from ``growStart``) when the loop was idle
/// for longer than the limit but no longer than ``maximum``, so polling would have caught the work; it halves when
/// the loop was idle for longer than ``maximum``, so polling only burned CPU, and stops below ``growStart``. A loop
/// whose work comes rarely or from far away stops polling after three long idle periods.
struct BusyPoll: Sendable {
    /// The first limit after a short idle period, in nanoseconds (haltpoll's `guest_halt_poll_grow_start`).
    static let growStart: UInt64 = 50_000

    /// How long one `sched_yield` may give the CPU away before the loop counts its CPU as contended, in
    /// nanoseconds: longer than the thread it just woke needs for a request, shorter than another process's slice.
    static let contendedYield: UInt64 = 100_000

    /// The longest the loop polls, in nanoseconds; 0 turns polling off.
    let maximum: UInt64
    /// How long the loop polls now before it sleeps, in nanoseconds.
    private(set) var limit: UInt64 = 0

    /// - Parameter maximum: The longest poll in nanoseconds; 0 never polls.
    init(maximum: UInt64) {
        self.maximum = maximum
    }

    /// Stops polling after a yield found the CPU contended: other threads want it, and a polling loop gets it back
    /// only after them, where a sleeping one is woken first. Short idle periods grow the limit again.
    mutating func contended() {
        limit = 0
    }

    /// Adapts the limit after an idle period ended by work (readiness, a job or a timer).
    /// - Parameter idle: How long the loop had nothing to do, polling and sleeping, in nanoseconds.
    mutating func adjust(idle: UInt64) {
        guard maximum > 0 else { return }
        if idle > limit && idle <= maximum {
            limit = min(max(limit * 2, Self.growStart), maximum)
        } else if idle > maximum {
            limit = limit / 2 < Self.growStart ? 0 : limit / 2
        }
    }
}
