#if canImport(Glibc)
import Glibc
#endif
import CLinuxSystem
import HTTPCore
import Synchronization

/// One `epoll` reactor thread: it turns readiness edges and timer deadlines into resumed continuations.
///
/// The loop does no socket I/O itself. Sockets are registered once, edge-triggered for both directions; tasks
/// read and write on their own threads and only come to the loop (through ``IOHandle/wait(for:until:)``) when
/// a call would block. A readiness edge resumes the waiting task directly, so a request costs one thread hop
/// per wait and no `epoll_ctl` after connecting.
///
/// Timers: each waiting handle has at most one entry in a heap ordered by deadline; a later deadline is picked
/// up lazily when the entry comes due, so resetting an inactivity timer costs nothing. The loop sleeps in
/// `epoll_wait` until the earliest deadline and is woken through an `eventfd` only when a new deadline is
/// earlier than the one it sleeps towards.
///
/// Jobs: the loop is also a `TaskExecutor` (``POSIXTransport/taskExecutor``). Jobs wait in a list beside the
/// timers and run after each round of readiness edges; a job enqueued from another thread wakes the loop only
/// when it sleeps. A task that prefers the loop is resumed on the loop thread itself, so a wait costs one
/// context switch instead of two. Once the loop has stopped, jobs go to the global concurrent executor.
///
/// Polling: with nothing to do and at most one task waiting on its sockets, the loop first polls (`epoll_wait`
/// without a timeout, yielding the CPU between polls) for as long as ``BusyPoll`` allows, and sleeps only after
/// that; while it polls it counts as awake, so enqueued jobs and earlier timers do not write its `eventfd`.
final class EventLoop: TaskExecutor, Sendable {
    private struct Registry {
        var slots: [IOHandle?] = []
        var generations: [UInt32] = []
        var free: [Int] = []
        var stopped = false

        func lookup(_ id: UInt64) -> IOHandle? {
            let slot = Int(truncatingIfNeeded: id & 0xFFFF_FFFF)
            guard slot < slots.count, generations[slot] == UInt32(truncatingIfNeeded: id >> 32) else { return nil }
            return slots[slot]
        }
    }

    private struct Schedule {
        var heap = TimerHeap()
        /// Jobs of tasks that prefer this loop as their executor, in arrival order.
        var jobs: [UnownedJob] = []
        /// The deadline the loop sleeps towards; 0 while it is awake, `never` when it sleeps without a timeout.
        var sleepingUntil: UInt64 = 0
        var stopping = false
        /// The loop thread has ended; jobs go to the global concurrent executor.
        var finished = false
    }

    /// The `epoll_event.data` value of the wake-up `eventfd`; registrations never reach it.
    private static let wakeID = UInt64.max
    private static let batchSize = 256
    /// Rounds of jobs (jobs enqueued by jobs) run before the loop looks at its sockets again.
    private static let jobRounds = 16

    /// What the loop does next when it has no job to run and no timer due.
    private enum Idle {
        case stop
        /// Look at the sockets without waiting: jobs are queued or a timer is due.
        case look
        /// Poll until the ``NanoTime`` given (the poll limit, or the earliest timer if sooner).
        case poll(until: UInt64)
        /// Sleep in `epoll_wait` for this many milliseconds (-1: until woken).
        case sleep(Int32)
    }

    /// How polling ended.
    private enum PollOutcome {
        /// `epoll_wait`'s result: events, or -1 with `errno`.
        case events(Int32)
        /// A job was enqueued or the loop is stopping.
        case jobs
        /// The limit passed with nothing to do.
        case expired
        /// A yield gave the CPU away for longer than ``BusyPoll/contendedYield``: other threads want the CPU, and a
        /// sleeping loop is woken sooner (the scheduler favours a thread that slept) than a polling one gets it back.
        case contended
    }

    let name: String
    private let epollFD: Int32
    private let wakeFD: Int32
    private let registry = Mutex(Registry())
    private let schedule = Mutex(Schedule())
    /// The adaptive poll limit; read and changed on the loop thread only.
    private let busyPoll: Mutex<BusyPoll>
    /// Tasks suspended in ``IOHandle/wait(for:until:orHangUp:wakeable:)`` on this loop's handles, counted only when
    /// the loop may poll (``countsWaiters``). It polls only while at most one waits: with more, sleeping lets
    /// answers gather into one wake-up (decision 0037).
    let waiters = Atomic<Int>(0)
    /// Whether the loop may poll, so its handles count their waiters; a loop that never polls pays nothing for it.
    let countsWaiters: Bool
    /// The loop thread's kernel id, 0 until it runs: tests read its scheduling state in `/proc`.
    let threadID = Atomic<Int32>(0)
    /// The read buffers its connections borrow for each read.
    let readBuffers = ReadBufferPool()
    /// The loop thread's `pthread_self()`, 0 until it runs: ``handOff(_:)`` asks whether it is called on the loop.
    private let thread = Atomic<pthread_t>(0)
    /// Callers' jobs leaving the loop at the end of their requests, handed over once per round.
    let handBacks = HandBackQueue()

    /// Creates the loop and starts its thread.
    /// - Parameters:
    ///   - name: The thread's name.
    ///   - busyPoll: The longest the loop polls before sleeping, in nanoseconds (``BusyPoll``); 0 never polls.
    /// - Throws: ``ClientError`` when `epoll`, `eventfd` or the thread cannot be created.
    init(name: String, busyPoll: UInt64 = 0) throws {
        self.name = name
        self.busyPoll = Mutex(BusyPoll(maximum: busyPoll))
        countsWaiters = busyPoll > 0
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else {
            throw ClientError(.internalError, stage: .transport, message: "Cannot create the event loop",
                              underlying: SyscallError.last("epoll_create1"))
        }
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard wakeFD >= 0 else {
            let error = SyscallError.last("eventfd")
            _ = Glibc.close(epollFD)
            throw ClientError(.internalError, stage: .transport, message: "Cannot create the event loop",
                              underlying: error)
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.wakeID
        _ = epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
        try NativeThread.start(name: name) { [self] in run() }
    }

    deinit {
        _ = Glibc.close(wakeFD)
        _ = Glibc.close(epollFD)
    }

    /// Registers a socket, edge-triggered for reading and writing, and returns its handle.
    /// - Parameter fd: A non-blocking socket.
    /// - Returns: The handle to wait on.
    /// - Throws: ``ClientError`` with ``ClientError/Code/connectFailed`` when the loop was stopped or `epoll_ctl`
    ///   fails.
    func register(_ fd: Int32) throws -> IOHandle {
        let handle = try registry.withLock { registry -> IOHandle in
            guard !registry.stopped else { throw Self.shutDownError }
            let slot: Int
            if let reused = registry.free.popLast() {
                slot = reused
            } else {
                slot = registry.slots.count
                registry.slots.append(nil)
                registry.generations.append(0)
            }
            let id = UInt64(registry.generations[slot]) << 32 | UInt64(slot)
            let handle = IOHandle(loop: self, registration: id)
            registry.slots[slot] = handle
            return handle
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        event.data.u64 = handle.registration
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
            let error = SyscallError.last("epoll_ctl")
            unregister(handle)
            throw ClientError(.connectFailed, stage: .transport, message: "Cannot watch the socket", underlying: error)
        }
        return handle
    }

    /// Forgets a handle. Call it before closing the socket; closing removes the socket from `epoll`.
    func unregister(_ handle: IOHandle) {
        registry.withLock { registry in
            let slot = Int(truncatingIfNeeded: handle.registration & 0xFFFF_FFFF)
            guard registry.lookup(handle.registration) === handle else { return }
            registry.slots[slot] = nil
            registry.generations[slot] &+= 1
            registry.free.append(slot)
        }
    }

    /// Arms a timer entry; wakes the loop when the deadline is earlier than the one it sleeps towards.
    func addTimer(for handle: IOHandle, at deadline: UInt64) {
        let wake = schedule.withLock { schedule -> Bool in
            guard !schedule.stopping else { return false }
            schedule.heap.insert(.init(deadline: deadline, handle: handle))
            guard deadline < schedule.sleepingUntil else { return false }
            schedule.sleepingUntil = deadline
            return true
        }
        if wake { wakeUp() }
    }

    /// Stops the loop: every registered handle fails with a "shut down" error, and later registrations throw.
    func stop() {
        let wasStopping = schedule.withLock { schedule -> Bool in
            defer { schedule.stopping = true }
            return schedule.stopping
        }
        if !wasStopping { wakeUp() }
    }

    /// Runs `job` on the loop thread after the current round of readiness edges; wakes the loop when it sleeps.
    /// - Parameter job: A job of a task that prefers this loop.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (accepted, wake) = schedule.withLock { schedule -> (Bool, Bool) in
            guard !schedule.finished else { return (false, false) }
            schedule.jobs.append(job)
            guard schedule.sleepingUntil != 0 else { return (true, false) }
            schedule.sleepingUntil = 0  // one wake-up is enough
            return (true, true)
        }
        if wake { wakeUp() }
        if !accepted { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// Takes a job enqueued on the loop's ``CallerHandOff``: on the loop thread, a task leaving the loop at the end of
    /// its request, which waits in ``handBacks`` for the end of the round; from any other thread, a task on its way
    /// onto the loop, which joins the loop's jobs.
    func handOff(_ job: consuming ExecutorJob) {
        if pthread_self() == thread.load(ordering: .relaxed) {
            handBacks.add(UnownedJob(job))
        } else {
            enqueue(job)
        }
    }

    static let shutDownError = ClientError(.connectFailed, stage: .transport, message: "The transport was shut down")

    private func wakeUp() {
        _ = eventfd_write(wakeFD, 1)
    }

    private func run() {
        threadID.store(c_socket_transport_thread_id(), ordering: .relaxed)
        thread.store(pthread_self(), ordering: .relaxed)
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Self.batchSize)
        defer { events.deallocate() }
        var due: [TimerHeap.Entry] = []
        var jobs: [UnownedJob] = []
        var pollLimit: UInt64 = 0
        rounds: while true {
            let polls = pollLimit > 0 && waiters.load(ordering: .relaxed) <= 1
            let idle = schedule.withLock { Self.idle(&$0, pollLimit: polls ? pollLimit : 0) }
            var count: Int32
            var idleSince: UInt64 = 0
            switch idle {
            case .stop:
                break rounds
            case .look:
                count = epoll_wait(epollFD, events, Int32(Self.batchSize), 0)
            case .poll(let end):
                idleSince = NanoTime.now()
                let outcome = poll(events, until: end)
                if case .contended = outcome { busyPoll.withLock { $0.contended() } }
                switch outcome {
                case .events(let polled): count = polled
                case .jobs: count = 0
                case .expired, .contended:
                    let timeout = schedule.withLock { Self.sleepTimeout(&$0) }
                    count = timeout == -2 ? 0 : epoll_wait(epollFD, events, Int32(Self.batchSize), timeout)
                }
            case .sleep(let timeout):
                idleSince = NanoTime.now()
                count = epoll_wait(epollFD, events, Int32(Self.batchSize), timeout)
            }
            schedule.withLock { $0.sleepingUntil = 0 }
            if idleSince != 0 {
                pollLimit = busyPoll.withLock { poll in
                    poll.adjust(idle: NanoTime.now() &- idleSince)
                    return poll.limit
                }
            }
            if count < 0 {
                precondition(errno == EINTR, "epoll_wait failed: errno \(errno)")
                continue
            }
            for index in 0..<Int(count) {
                dispatch(events[index])
            }
            fireTimers(into: &due)
            runJobs(&jobs)
            handBacks.flush()
        }
        shutDown()
        // Tasks woken by the shutdown still prefer this loop: run what is queued, then hand new jobs on.
        runJobs(&jobs)
        handBacks.flush()
        handBacks.detach()
        thread.store(0, ordering: .relaxed)  // a later thread with the same pthread_t is not the loop
        let rest = schedule.withLock { schedule -> [UnownedJob] in
            schedule.finished = true
            defer { schedule.jobs = [] }
            return schedule.jobs
        }
        for job in rest { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// What the loop does next: stop, look at the sockets at once, poll, or sleep (and then records until when).
    private static func idle(_ schedule: inout Schedule, pollLimit: UInt64) -> Idle {
        if schedule.stopping { return .stop }
        guard schedule.jobs.isEmpty else {
            schedule.sleepingUntil = 0
            return .look
        }
        let earliest = schedule.heap.earliest ?? NanoTime.never
        let now = NanoTime.now()
        guard earliest > now else {
            schedule.sleepingUntil = 0
            return .look
        }
        if pollLimit > 0 {
            schedule.sleepingUntil = 0  // awake while polling: no eventfd write for jobs or timers
            return .poll(until: min(now &+ pollLimit, earliest))
        }
        let timeout = sleepTimeout(&schedule)
        return timeout == -2 ? .stop : timeout == 0 ? .look : .sleep(timeout)
    }

    /// The `epoll_wait` timeout until the earliest timer (-1 for none, 0 when a job is queued or a timer is due,
    /// -2 when stopping); records the deadline the loop sleeps towards.
    private static func sleepTimeout(_ schedule: inout Schedule) -> Int32 {
        if schedule.stopping { return -2 }
        guard schedule.jobs.isEmpty else {
            schedule.sleepingUntil = 0
            return 0
        }
        guard let earliest = schedule.heap.earliest else {
            schedule.sleepingUntil = NanoTime.never
            return -1
        }
        let now = NanoTime.now()
        guard earliest > now else {
            schedule.sleepingUntil = 0
            return 0
        }
        schedule.sleepingUntil = earliest
        return Int32(min((earliest - now + 999_999) / 1_000_000, UInt64(Int32.max)))
    }

    /// Polls the sockets without sleeping until `end`, yielding the CPU between polls, so a thread the loop just
    /// woke (on the same CPU) runs meanwhile.
    private func poll(_ events: UnsafeMutablePointer<epoll_event>, until end: UInt64) -> PollOutcome {
        while true {
            let count = epoll_wait(epollFD, events, Int32(Self.batchSize), 0)
            if count != 0 { return .events(count) }
            if schedule.withLock({ !$0.jobs.isEmpty || $0.stopping }) { return .jobs }
            let now = NanoTime.now()
            if now >= end { return .expired }
            sched_yield()
            if NanoTime.now() &- now > BusyPoll.contendedYield { return .contended }
        }
    }

    /// Runs the queued jobs, and the jobs they enqueue, for up to ``jobRounds`` rounds.
    private func runJobs(_ jobs: inout [UnownedJob]) {
        let executor = asUnownedTaskExecutor()
        for _ in 0..<Self.jobRounds {
            schedule.withLock { swap(&jobs, &$0.jobs) }
            if jobs.isEmpty { return }
            for job in jobs { job.runSynchronously(on: executor) }
            jobs.removeAll(keepingCapacity: true)
        }
    }

    private func dispatch(_ event: epoll_event) {
        let id = event.data.u64
        if id == Self.wakeID {
            var value: eventfd_t = 0
            _ = eventfd_read(wakeFD, &value)
            return
        }
        guard let handle = registry.withLock({ $0.lookup(id) }) else { return }
        let flags = event.events
        let readable = flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
        let writable = flags & (EPOLLOUT.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
        let hungUp = flags & (EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
        handle.signal(readable: readable, writable: writable, hungUp: hungUp)
    }

    private func fireTimers(into due: inout [TimerHeap.Entry]) {
        let now = NanoTime.now()
        schedule.withLock { schedule in
            while let entry = schedule.heap.popDue(now: now) { due.append(entry) }
        }
        guard !due.isEmpty else { return }
        for entry in due {
            if let later = entry.handle.timerFired(entry: entry.deadline, now: now) {
                schedule.withLock { $0.heap.insert(.init(deadline: later, handle: entry.handle)) }
            }
        }
        due.removeAll(keepingCapacity: true)
    }

    private func shutDown() {
        let handles = registry.withLock { registry -> [IOHandle] in
            registry.stopped = true
            return registry.slots.compactMap { $0 }
        }
        schedule.withLock { $0.heap.removeAll() }
        for handle in handles { handle.fail(Self.shutDownError) }
    }
}
