public import HTTPCore
import Synchronization

/// A request started with ``Client/start(_:callbacks:on:)``: cancel it, or wait for it.
public final class RequestHandle: Sendable {
    /// The request's ID.
    public let requestID: RequestID
    private struct State {
        var callbacks: RequestCallbacks?
        var task: Task<Void, Never>?
        var cancelRequested = false
        /// Told about a cancel, for a request still waiting in a ``RequestQueue``.
        var onCancel: (@Sendable () -> Void)?
        /// Whether the request is over and its last callback enqueued.
        var isFinished = false
        /// Callers of ``wait()`` for a request that has no task yet.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(requestID: RequestID, callbacks: RequestCallbacks) {
        self.requestID = requestID
        self.state = Mutex(State(callbacks: callbacks))
    }

    func attach(_ task: Task<Void, Never>) {
        let cancel = state.withLock { state in
            state.task = task
            return state.cancelRequested
        }
        if cancel { task.cancel() }
    }

    /// Sets what a cancel also tells (the queue holding the request); called at once if already cancelled.
    func onCancel(_ hook: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            state.onCancel = hook
            return state.cancelRequested
        }
        if cancelled { hook() }
    }

    /// The callbacks still to be delivered; `nil` after ``clearCallbacksAndCancel()``.
    var callbacks: RequestCallbacks? { state.withLock { $0.callbacks } }

    /// Cancels the request. If it has not finished, ``RequestCallbacks/failed`` is called with
    /// ``ClientError/Code/cancelled`` (ASIHTTPRequest's `cancel`).
    public func cancel() {
        let (task, hook) = state.withLock { state in
            state.cancelRequested = true
            return (state.task, state.onCancel)
        }
        task?.cancel()
        hook?()
    }

    /// Drops every callback, then cancels: nothing is called afterwards, not even ``RequestCallbacks/failed``
    /// (ASIHTTPRequest's `clearDelegatesAndCancel`). Use it when the object the callbacks refer to goes away.
    public func clearCallbacksAndCancel() {
        let (task, hook) = state.withLock { state in
            state.callbacks = nil
            state.cancelRequested = true
            return (state.task, state.onCancel)
        }
        task?.cancel()
        hook?()
    }

    /// The request is over and its last callback enqueued: drops the task (which captures this handle, so
    /// keeping it would make a cycle that holds every finished task's memory) and wakes the waiters.
    func markFinished() {
        let waiters = state.withLock { state in
            state.isFinished = true
            state.task = nil
            state.onCancel = nil
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until the request has finished or failed and its last callback has been enqueued.
    public func wait() async {
        let (finished, task) = state.withLock { ($0.isFinished, $0.task) }
        if finished { return }
        if let task { return await task.value }
        // Not started yet (waiting in a queue).
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.isFinished { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
