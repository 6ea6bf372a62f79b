/// The start and stop of a plug-in that holds resources or does background work (a disk cache's eviction, a
/// keyring's flush, a PAC file's refresh).
///
/// Every plug-in protocol of the client refines this one, and both requirements have do-nothing defaults, so a
/// plug-in without background work writes neither. ``Client/run()`` (in `HTTPPipeline`) runs every plug-in's
/// ``run()`` in one task group for the app to await beside its other services, and `Client.shutdown()` reaches
/// every plug-in the client owns.
///
/// ## Implementation requirements
/// - ``run()`` does the background work until its task is cancelled, then returns (it may return earlier, for
///   example once ``shutdown()`` was called). Library code starts no unstructured task: periodic work belongs
///   here, where the app's task group owns it.
/// - ``shutdown()`` flushes what must reach storage and frees resources. It is idempotent, and requests made
///   after it may fail with ``ClientError/Code/cancelled`` or ``ClientError/Code/invalidConfiguration``, but
///   never crash.
///
/// ## Implement a lifecycle
/// ```swift
/// final class FlushingStore: CacheStore {
///     func run() async throws {
///         while !Task.isCancelled {
///             try await Task.sleep(for: .seconds(30))
///             try await flush()
///         }
///     }
///     func shutdown() async throws { try await flush() }
///     // ...
/// }
/// ```
public protocol PluginLifecycle: Sendable {
    /// Does the plug-in's background work until the task is cancelled or the plug-in is shut down.
    /// - Throws: ``ClientError`` when the work cannot go on, or `CancellationError`.
    func run() async throws

    /// Flushes and frees the plug-in's resources. Idempotent.
    /// - Throws: ``ClientError`` when resources cannot be freed cleanly.
    func shutdown() async throws
}

extension PluginLifecycle {
    /// Returns at once: the plug-in has no background work.
    public func run() async throws {}

    /// Does nothing: the plug-in holds no resources.
    public func shutdown() async throws {}
}
