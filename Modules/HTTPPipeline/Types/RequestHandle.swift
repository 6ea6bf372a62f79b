public import HTTPCore
import Synchronization

/// A request started with ``Client/start(_:callbacks:on:)`` or added to a ``RequestQueue``: cancel it, or wait for it.
public final class RequestHandle: Sendable {
    /// The request's ID.
    public let requestID: RequestID
    private struct State {
        var callbacks: RequestCallbacks?
        /// The request's own task (``Client/start(_:callbacks:on:)``).
        var task: Task<Void, Never>?
        /// A queued request as it was added, until it is over; the queue keeps no other copy.
        var queued: Request?
        /// The queue worker running the request, while it runs (a queued request has no task of its own).
        var worker: QueueWorker?
        /// The queue holding the request, told about a cancel while the request waits. Weak: a suspended queue
        /// that nobody holds goes away, and its deinit releases the requests still waiting.
        weak var queue: RequestQueue?
        var cancelRequested = false
        /// Whether the request is over and its last callback enqueued.
        var isFinished = false
        /// Callers of ``wait()`` until the request is over.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(requestID: RequestID, callbacks: RequestCallbacks) {
        self.requestID = requestID
        self.state = Mutex(State(callbacks: callbacks))
    }

    /// A request added to `queue`, which runs it on one of its workers.
    init(requestID: RequestID, callbacks: RequestCallbacks, queued request: Request, in queue: RequestQueue) {
        self.requestID = requestID
        var state = State(callbacks: callbacks)
        state.queued = request
        state.queue = queue
        self.state = Mutex(state)
    }

    func attach(_ task: Task<Void, Never>) {
        let cancel = state.withLock { state in
            state.task = task
            return state.cancelRequested
        }
        if cancel { task.cancel() }
    }

    /// The queued request as it was added; `nil` once it is over.
    var queuedRequest: Request? { state.withLock { $0.queued } }

    /// A queue worker takes the request: returns it as added, whether to send it (`false`: it was cancelled
    /// before it started, and fails without being sent), and the callbacks set now (in the same lock, so the worker
    /// reads them once; a callback cleared later is still not called, since its delivery reads them again). While it
    /// runs, a cancel cancels the worker's task.
    func begin(on worker: QueueWorker) -> (request: Request?, sends: Bool, callbacks: RequestCallbacks?) {
        state.withLock { state -> (request: Request?, sends: Bool, callbacks: RequestCallbacks?) in
            guard !state.cancelRequested else { return (state.queued, false, state.callbacks) }
            state.worker = worker
            return (state.queued, true, state.callbacks)
        }
    }

    /// The callbacks still to be delivered; `nil` after ``clearCallbacksAndCancel()``.
    var callbacks: RequestCallbacks? { state.withLock { $0.callbacks } }

    /// Cancels the request. If it has not finished, ``RequestCallbacks/failed`` is called with
    /// ``ClientError/Code/cancelled`` (ASIHTTPRequest's `cancel`).
    public func cancel() {
        cancel(clearingCallbacks: false)
    }

    /// Drops every callback, then cancels: nothing is called afterwards, not even ``RequestCallbacks/failed``
    /// (ASIHTTPRequest's `clearDelegatesAndCancel`). Use it when the object the callbacks refer to goes away.
    public func clearCallbacksAndCancel() {
        cancel(clearingCallbacks: true)
    }

    /// Marks the request cancelled, and cancels what runs it: its task, its queue worker (which then retires, see
    /// ``markFinished()``), or, while it waits, its place in the queue.
    private func cancel(clearingCallbacks: Bool) {
        let (task, worker, queue) = state.withLock { state in
            if clearingCallbacks { state.callbacks = nil }
            state.cancelRequested = true
            return (state.task, state.worker, state.queue)
        }
        task?.cancel()
        worker?.cancel()
        queue?.cancelWaiting(self)
    }

    /// The request is over and its last callback enqueued: drops the task (which captures this handle, so
    /// keeping it would make a cycle that holds every finished task's memory), the queued request and the worker,
    /// and wakes the waiters.
    /// - Returns: Whether a cancel reached the request while a queue worker ran it. The worker's task is then
    ///   cancelled (or about to be: the canceller read the worker before this), so it must not run another request.
    @discardableResult
    func markFinished() -> Bool {
        let (waiters, workerCancelled) = state.withLock { state in
            let workerCancelled = state.worker != nil && state.cancelRequested
            state.isFinished = true
            state.task = nil
            state.worker = nil
            state.queue = nil
            state.queued = nil
            defer { state.waiters = [] }
            return (state.waiters, workerCancelled)
        }
        for waiter in waiters { waiter.resume() }
        return workerCancelled
    }

    /// Waits until the request has finished or failed and its last callback has been enqueued.
    public func wait() async {
        if state.withLock({ $0.isFinished }) { return }
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
