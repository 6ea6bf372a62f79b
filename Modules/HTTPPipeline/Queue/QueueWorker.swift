import Synchronization

/// One of a ``RequestQueue``'s worker tasks, as the handle of the request it runs sees it: a way to cancel that
/// task (Docs/Decisions/0035-queue-workers.md).
///
/// A worker runs one request after another, so cancelling one request cancels the worker's task. A worker whose
/// request was cancelled therefore retires once that request is over (``RequestHandle/markFinished()`` says so),
/// and the request it would have taken next starts on a new worker.
final class QueueWorker: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        /// A cancel that came before the task was attached.
        var cancelRequested = false
    }
    private let state = Mutex(State())

    /// The worker's task, attached once started; cancelled at once when a cancel came first.
    func attach(_ task: Task<Void, Never>) {
        let cancel = state.withLock { state in
            state.task = task
            return state.cancelRequested
        }
        if cancel { task.cancel() }
    }

    /// Cancels the worker's task (and so the request it runs).
    func cancel() {
        let task = state.withLock { state in
            state.cancelRequested = true
            return state.task
        }
        task?.cancel()
    }

    /// The worker has no more work: drops its task, which captures the worker.
    func finished() {
        state.withLock { $0.task = nil }
    }
}
