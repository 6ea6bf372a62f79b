/// A byte store for responses, keyed by the pipeline's cache key.
///
/// The pipeline decides what may be cached, when an entry is fresh and how to revalidate it (RFC 9111 and
/// ASIHTTPRequest's cache policies); a store only keeps entries.
///
/// ## Implementation requirements
/// - Be safe to call from many tasks at once. When two writers race, the last write wins.
/// - Return `nil` for a missing key; throw only when the backing storage fails (use
///   ``ClientError/Code/storageFailed``).
///
/// ## Implement a custom cache store
/// ```swift
/// actor DictionaryCache: CacheStore {
///     var entries: [String: CachedResponse] = [:]
///     func cachedResponse(forKey key: String) -> CachedResponse? { entries[key] }
///     func store(_ response: CachedResponse, forKey key: String) { entries[key] = response }
///     func removeResponse(forKey key: String) { entries[key] = nil }
/// }
/// ```
public protocol CacheStore: PluginLifecycle {
    /// Returns the entry stored under `key`.
    /// - Parameter key: The cache key.
    /// - Returns: The entry, or `nil`.
    /// - Throws: ``ClientError`` when the storage fails.
    func cachedResponse(forKey key: String) async throws -> CachedResponse?
    /// Stores an entry, replacing any under the same key.
    /// - Parameters:
    ///   - response: The entry.
    ///   - key: The cache key.
    /// - Throws: ``ClientError`` when the storage fails.
    func store(_ response: CachedResponse, forKey key: String) async throws
    /// Removes the entry under `key`, if any.
    /// - Parameter key: The cache key.
    /// - Throws: ``ClientError`` when the storage fails.
    func removeResponse(forKey key: String) async throws
}
