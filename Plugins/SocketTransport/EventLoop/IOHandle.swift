import Synchronization

/// The readiness of one socket registered with an ``EventLoop``, and the one task waiting on it.
///
/// The socket is registered once, edge-triggered, for both directions. Its owner does I/O on its own thread until
/// a call would block, then calls ``wait(for:until:)``. The loop thread records each edge in ``State`` and
/// resumes the waiter when the edge matches what it waits for, so no `epoll_ctl` is needed per wait and no edge
/// is lost: an edge that arrives between the failed call and the wait leaves a flag that makes the wait return
/// at once (the owner then retries the call, which may block again).
final class IOHandle: Sendable {
    /// Which readiness a waiter needs.
    enum Interest: Sendable {
        case read
        case write
    }

    /// Thrown by ``wait(for:until:)`` when the deadline passes; callers turn it into a ``ClientError`` that says
    /// which phase timed out.
    struct TimedOut: Error {}

    private struct State {
        var readable = false
        var writable = false
        /// The peer closed its side or the connection broke (`EPOLLRDHUP`, `EPOLLHUP`, `EPOLLERR`); never cleared.
        var hungUp = false
        var waiter: UnsafeContinuation<Void, any Error>?
        var interest = Interest.read
        /// The current waiter's deadline.
        var deadline = NanoTime.never
        /// The earliest timer entry the loop holds for this handle (`never` when none).
        var armedDeadline = NanoTime.never
        /// Once set, every wait fails with it: cancellation, timeout or loop shutdown. The owner closes the socket.
        var failure: (any Error)?
        /// Set by ``wake()`` while no wakeable wait is pending: the next wakeable wait returns at once.
        var woken = false
        /// Whether the current waiter asked to be woken by ``wake()`` too.
        var waiterIsWakeable = false
        /// Whether the last wakeable wait returned because of ``wake()`` rather than readiness.
        var returnedForWake = false
    }

    private enum WaitStep {
        case ready
        case failed(any Error)
        case suspended(armTimer: Bool)
    }

    /// The loop that watches the socket.
    let loop: EventLoop
    /// The loop's registration number for this handle.
    let registration: UInt64
    private let state = Mutex(State())

    init(loop: EventLoop, registration: UInt64) {
        self.loop = loop
        self.registration = registration
    }

    /// Suspends until the socket is ready for `interest`, the deadline passes, the task is cancelled or the
    /// handle fails.
    ///
    /// A waiter that drained the socket before calling `recv` again passes `orHangUp`: the peer's close may have
    /// been reported with the edge of bytes already read, and no later edge would come for it.
    /// - Parameters:
    ///   - interest: Read or write readiness.
    ///   - deadline: A ``NanoTime`` deadline, or `NanoTime.never`.
    ///   - orHangUp: Also return at once when the peer closed or the connection broke.
    ///   - wakeable: Also return when ``wake()`` is called (or was, since the last wakeable wait).
    /// - Throws: ``TimedOut``, `CancellationError`, or the error the handle failed with.
    func wait(
        for interest: Interest, until deadline: UInt64, orHangUp: Bool = false, wakeable: Bool = false
    ) async throws {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let step = state.withLock { state -> WaitStep in
                    if let failure = state.failure { return .failed(failure) }
                    if orHangUp && state.hungUp { return .ready }
                    if wakeable && state.woken {
                        state.woken = false
                        state.returnedForWake = true
                        return .ready
                    }
                    if wakeable { state.returnedForWake = false }
                    switch interest {
                    case .read where state.readable:
                        state.readable = false
                        return .ready
                    case .write where state.writable:
                        state.writable = false
                        return .ready
                    default:
                        break
                    }
                    precondition(state.waiter == nil, "two tasks wait on one socket")
                    state.waiter = continuation
                    if loop.countsWaiters { loop.waiters.add(1, ordering: .relaxed) }
                    state.waiterIsWakeable = wakeable
                    state.interest = interest
                    state.deadline = deadline
                    guard deadline < state.armedDeadline else { return .suspended(armTimer: false) }
                    state.armedDeadline = deadline
                    return .suspended(armTimer: true)
                }
                switch step {
                case .ready: continuation.resume()
                case .failed(let error): continuation.resume(throwing: error)
                case .suspended(let armTimer):
                    if armTimer { loop.addTimer(for: self, at: deadline) }
                }
            }
        } onCancel: {
            fail(CancellationError())
        }
    }

    /// Records readiness reported by `epoll` and resumes a matching waiter. Called on the loop thread.
    func signal(readable: Bool, writable: Bool, hungUp: Bool) {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            if hungUp { state.hungUp = true }
            if readable { state.readable = true }
            if writable { state.writable = true }
            guard let waiter = state.waiter else { return nil }
            switch state.interest {
            case .read where state.readable: state.readable = false
            case .write where state.writable: state.writable = false
            default: return nil
            }
            state.waiter = nil
            if loop.countsWaiters { loop.waiters.subtract(1, ordering: .relaxed) }
            return waiter
        }
        waiter?.resume()
    }

    /// Resumes a wait that passed `wakeable` (a multiplexed connection's driver waiting for bytes, so it can write
    /// what another task queued); without one, the next wakeable wait returns at once. Callable from any thread.
    func wake() {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            guard let waiter = state.waiter, state.waiterIsWakeable else {
                state.woken = true
                return nil
            }
            state.waiter = nil
            if loop.countsWaiters { loop.waiters.subtract(1, ordering: .relaxed) }
            state.returnedForWake = true
            return waiter
        }
        waiter?.resume()
    }

    /// Waits, without a deadline, until the socket is ready for `interest` or ``wake()`` is called (or was, since
    /// the last such wait), as ``wait(for:until:orHangUp:wakeable:)`` with `wakeable`; says which.
    /// - Parameter interest: Read or write readiness.
    /// - Returns: `true` when readiness ended the wait, `false` when ``wake()`` did: the socket may still have
    ///   nothing to read, and a caller that drained it need not try.
    /// - Throws: `CancellationError`, or the error the handle failed with.
    func waitOrWake(for interest: Interest) async throws -> Bool {
        try await wait(for: interest, until: NanoTime.never, wakeable: true)
        return state.withLock { !$0.returnedForWake }
    }

    /// Handles a timer entry the loop armed for `entry`; returns a later deadline to arm again, if the waiter's
    /// deadline moved. Called on the loop thread.
    func timerFired(entry: UInt64, now: UInt64) -> UInt64? {
        let (expired, rearm) = state.withLock { state -> (UnsafeContinuation<Void, any Error>?, UInt64?) in
            guard entry == state.armedDeadline else { return (nil, nil) }
            state.armedDeadline = NanoTime.never
            guard let waiter = state.waiter else { return (nil, nil) }
            guard now >= state.deadline else {
                state.armedDeadline = state.deadline
                return (nil, state.deadline)
            }
            state.waiter = nil
            if loop.countsWaiters { loop.waiters.subtract(1, ordering: .relaxed) }
            if state.failure == nil { state.failure = TimedOut() }
            return (waiter, nil)
        }
        expired?.resume(throwing: TimedOut())
        return rearm
    }

    /// Fails the handle for good and wakes its waiter with `error`; the first error is kept.
    func fail(_ error: any Error) {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            if state.failure == nil { state.failure = error }
            if state.waiter != nil && loop.countsWaiters { loop.waiters.subtract(1, ordering: .relaxed) }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(throwing: error)
    }

    /// Whether the handle failed (cancelled, timed out, shut down).
    var hasFailed: Bool { state.withLock { $0.failure != nil } }

    /// Whether `epoll` reported the socket readable since the last wait; for an idle pooled connection that
    /// means the server closed it or sent something unsolicited.
    var mayBeReadable: Bool { state.withLock { $0.readable } }

    /// Whether the handle failed or `epoll` ever reported that the peer closed its side or the connection broke.
    /// The report may have come with the last response's bytes, so the readable flag alone does not show it.
    var isFinished: Bool { state.withLock { $0.failure != nil || $0.hungUp } }

    /// Forgets a readable edge whose bytes were already consumed (before a connection goes idle).
    func clearReadable() {
        state.withLock { $0.readable = false }
    }
}
