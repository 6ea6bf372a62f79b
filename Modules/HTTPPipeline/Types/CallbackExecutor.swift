public import Dispatch

/// Where callbacks run. A serial executor keeps them in order.
///
/// `DispatchQueue` conforms, so `.main` (with a running main loop) or any serial queue of the app's can be
/// used; ``Client/callbackQueue`` is the default.
public protocol CallbackExecutor: Sendable {
    /// Runs `work` later, after everything enqueued before it.
    /// - Parameter work: The callback to run.
    func enqueue(_ work: @escaping @Sendable () -> Void)
}

extension DispatchQueue: CallbackExecutor {
    /// Runs `work` asynchronously on the queue.
    /// - Parameter work: The callback to run.
    public func enqueue(_ work: @escaping @Sendable () -> Void) {
        async(execute: work)
    }
}
