import FoundationEssentials

/// Keeps the hosts that asked for HTTPS only (HTTP Strict Transport Security, RFC 6797), so the pipeline can
/// upgrade `http://` requests to them before any byte is sent.
///
/// The pipeline parses `Strict-Transport-Security`, accepts it only from `https` responses whose certificate was
/// validated and from hosts that are not IP literals, and hands the store the resulting entries. A store only
/// keeps them and answers lookups; the rules themselves are ``HSTSStorage``'s, which every store wraps.
///
/// ## Implementation requirements
/// - Be safe to call from many tasks at once.
/// - Keep the entries in an ``HSTSStorage`` and pass the current time to it: ``entry(covering:)`` answers
///   ``HSTSStorage/entry(covering:at:)``, ``update(_:)`` applies ``HSTSStorage/update(_:at:)`` (an expired entry
///   removes the host).
/// - ``isKnownEmpty`` is `true` only when the store certainly holds no entry; the pipeline then skips the lookup.
/// - A store that persists entries writes them in ``PluginLifecycle/shutdown()``; errors are ``ClientError`` with
///   ``ClientError/Code/storageFailed``.
///
/// ## Implement a custom HSTS store
/// ```swift
/// final class MyHSTSStore: HSTSStore {
///     private let storage = Mutex(HSTSStorage())
///     func entry(covering host: String) -> HSTSEntry? {
///         storage.withLock { $0.entry(covering: host, at: Date()) }
///     }
///     func update(_ entry: HSTSEntry) {
///         let now = Date()
///         storage.withLock { $0.update(entry, at: now) }
///     }
/// }
/// ```
public protocol HSTSStore: PluginLifecycle {
    /// The entry whose policy covers `host` now, if any.
    /// - Parameter host: The request's host name.
    /// - Returns: The entry; `nil` when requests to `host` are not upgraded.
    /// - Throws: ``ClientError`` when the storage fails.
    func entry(covering host: String) async throws -> HSTSEntry?

    /// Records an entry from a `Strict-Transport-Security` field; an expired one (`max-age=0`) removes the host.
    /// - Parameter entry: The entry.
    /// - Throws: ``ClientError`` when the storage fails.
    func update(_ entry: HSTSEntry) async throws

    /// Whether the store certainly holds no entry, so the pipeline may skip ``entry(covering:)``. Answer without
    /// I/O; `false` is always correct.
    var isKnownEmpty: Bool { get }
}

extension HSTSStore {
    /// `false`: the store may hold entries, and the pipeline asks on every `http` request.
    public var isKnownEmpty: Bool { false }
}
