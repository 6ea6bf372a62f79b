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
final class EventLoop: Sendable {
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

    private struct Timers {
        var heap = TimerHeap()
        /// The deadline the loop sleeps towards; 0 while it is awake, `never` when it sleeps without a timeout.
        var sleepingUntil: UInt64 = 0
        var stopping = false
    }

    /// The `epoll_event.data` value of the wake-up `eventfd`; registrations never reach it.
    private static let wakeID = UInt64.max
    private static let batchSize = 256

    let name: String
    private let epollFD: Int32
    private let wakeFD: Int32
    private let registry = Mutex(Registry())
    private let timers = Mutex(Timers())

    /// Creates the loop and starts its thread.
    /// - Parameter name: The thread's name.
    /// - Throws: ``ClientError`` when `epoll`, `eventfd` or the thread cannot be created.
    init(name: String) throws {
        self.name = name
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
        let wake = timers.withLock { timers -> Bool in
            guard !timers.stopping else { return false }
            timers.heap.insert(.init(deadline: deadline, handle: handle))
            guard deadline < timers.sleepingUntil else { return false }
            timers.sleepingUntil = deadline
            return true
        }
        if wake { wakeUp() }
    }

    /// Stops the loop: every registered handle fails with a "shut down" error, and later registrations throw.
    func stop() {
        let wasStopping = timers.withLock { timers -> Bool in
            defer { timers.stopping = true }
            return timers.stopping
        }
        if !wasStopping { wakeUp() }
    }

    static let shutDownError = ClientError(.connectFailed, stage: .transport, message: "The transport was shut down")

    private func wakeUp() {
        _ = eventfd_write(wakeFD, 1)
    }

    private func run() {
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Self.batchSize)
        defer { events.deallocate() }
        var due: [TimerHeap.Entry] = []
        while true {
            let timeout = timers.withLock { timers -> Int32 in
                if timers.stopping { return -2 }
                guard let earliest = timers.heap.earliest else {
                    timers.sleepingUntil = NanoTime.never
                    return -1
                }
                let now = NanoTime.now()
                guard earliest > now else {
                    timers.sleepingUntil = 0
                    return 0
                }
                timers.sleepingUntil = earliest
                return Int32(min((earliest - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            }
            if timeout == -2 { break }
            let count = epoll_wait(epollFD, events, Int32(Self.batchSize), timeout)
            timers.withLock { $0.sleepingUntil = 0 }
            if count < 0 {
                precondition(errno == EINTR, "epoll_wait failed: errno \(errno)")
                continue
            }
            for index in 0..<Int(count) {
                dispatch(events[index])
            }
            fireTimers(into: &due)
        }
        shutDown()
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
        timers.withLock { timers in
            while let entry = timers.heap.popDue(now: now) { due.append(entry) }
        }
        guard !due.isEmpty else { return }
        for entry in due {
            if let later = entry.handle.timerFired(entry: entry.deadline, now: now) {
                timers.withLock { $0.heap.insert(.init(deadline: later, handle: entry.handle)) }
            }
        }
        due.removeAll(keepingCapacity: true)
    }

    private func shutDown() {
        let handles = registry.withLock { registry -> [IOHandle] in
            registry.stopped = true
            return registry.slots.compactMap { $0 }
        }
        timers.withLock { $0.heap.removeAll() }
        for handle in handles { handle.fail(Self.shutDownError) }
    }
}
