import Synchronization

/// A socket registered with an ``EventLoop``, and the one task waiting on it.
///
/// The socket is registered one-shot and disarmed: `epoll` reports nothing until a task arms it. The owner does
/// I/O on its own thread until a call would block, then calls ``wait(for:until:)``, which stores the
/// continuation and arms the socket for that one direction (level-triggered, so readiness that arrived in
/// between fires at once). The loop thread resumes the waiter on the event. Because a socket that nobody waits
/// on is disarmed, its traffic never wakes the loop: a request that waits inline (see ``Connection``) costs the
/// loop nothing.
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
        var waiter: UnsafeContinuation<Void, any Error>?
        /// The current waiter's deadline.
        var deadline = NanoTime.never
        /// The earliest timer entry the loop holds for this handle (`never` when none).
        var armedDeadline = NanoTime.never
        /// An event arrived while nobody waited (a reset or hang-up of an idle socket).
        var sawUnexpectedEvent = false
        /// Once set, every wait fails with it: cancellation, timeout or loop shutdown. The owner closes the socket.
        var failure: (any Error)?
    }

    private enum WaitStep {
        case failed(any Error)
        case suspended(armTimer: Bool)
    }

    /// The loop that watches the socket.
    let loop: EventLoop
    /// The socket.
    let fd: Int32
    /// The loop's registration number for this handle.
    let registration: UInt64
    private let state = Mutex(State())

    init(loop: EventLoop, fd: Int32, registration: UInt64) {
        self.loop = loop
        self.fd = fd
        self.registration = registration
    }

    /// Suspends until the socket is ready for `interest`, the deadline passes, the task is cancelled or the
    /// handle fails.
    /// - Parameters:
    ///   - interest: Read or write readiness.
    ///   - deadline: A ``NanoTime`` deadline, or `NanoTime.never`.
    /// - Throws: ``TimedOut``, `CancellationError`, or the error the handle failed with.
    func wait(for interest: Interest, until deadline: UInt64) async throws {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let step = state.withLock { state -> WaitStep in
                    if let failure = state.failure { return .failed(failure) }
                    precondition(state.waiter == nil, "two tasks wait on one socket")
                    state.waiter = continuation
                    state.deadline = deadline
                    guard deadline < state.armedDeadline else { return .suspended(armTimer: false) }
                    state.armedDeadline = deadline
                    return .suspended(armTimer: true)
                }
                switch step {
                case .failed(let error):
                    continuation.resume(throwing: error)
                case .suspended(let armTimer):
                    if armTimer { loop.addTimer(for: self, at: deadline) }
                    // The owner cannot close the socket before this closure returns, so arming here is safe even
                    // if the waiter was already resumed by cancellation.
                    if let error = loop.arm(self, for: interest) { fail(error) }
                }
            }
        } onCancel: {
            fail(CancellationError())
        }
    }

    /// Resumes the waiter after `epoll` reported an event. Called on the loop thread.
    func signal() {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            guard let waiter = state.waiter else {
                state.sawUnexpectedEvent = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
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
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(throwing: error)
    }

    /// Whether the handle failed (cancelled, timed out, shut down).
    var hasFailed: Bool { state.withLock { $0.failure != nil } }

    /// Whether the handle failed or `epoll` reported a reset or hang-up while nobody waited.
    var isTroubled: Bool { state.withLock { $0.failure != nil || $0.sawUnexpectedEvent } }
}
