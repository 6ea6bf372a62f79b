/// Keeps responses for the pipeline's cache rules, keyed by the pipeline's cache key.
///
/// The pipeline decides what may be cached, when an entry is fresh and how to revalidate it (RFC 9111 and
/// ASIHTTPRequest's cache policies); a store keeps entries and answers for them. An entry is a head
/// (``CachedResponseHead``: status, fields, dates, storage policy, `Vary` request fields) and a body that is
/// read lazily (``CachedBody``: a stream, or a file). The pipeline:
/// 1. looks the head up with ``entry(forKey:)`` and opens the body only when it uses the entry;
/// 2. stores a response through ``makeWriter(forKey:head:expectedLength:)``, writing each chunk as the caller
///    reads it, and commits at the end of the body (aborting on failure, discard or cancellation);
/// 3. after a `304`, replaces the head alone with ``updateHead(_:forKey:replacing:)``.
///
/// ## Implementation requirements
/// - Be safe to call from many tasks at once. When two writers commit under one key, the last commit wins.
/// - An entry is visible only once its writer committed; a lookup never returns a half-written entry (see
///   ``CacheEntryWriter``). The size cap is the store's: decline an entry up front (return `nil` from
///   ``makeWriter(forKey:head:expectedLength:)``) or while it is written.
/// - ``updateHead(_:forKey:replacing:)`` never rewrites or reads the body; it does nothing when the key has no
///   entry, or when the entry's head is no longer the `previous` one (the entry was replaced since the lookup).
/// - Keep heads and bodies byte for byte; do not interpret the key (it is a URL string; hash it for file names).
/// - Honour ``CachedResponseHead/storagePolicy``: session entries do not outlive the process (a persistent store
///   removes them when it starts or shuts down).
/// - Return `nil` for a missing key; throw only when the backing storage fails (use
///   ``ClientError/Code/storageFailed``). Removing what is not there is not an error.
/// - Background work (eviction, sweeping abandoned writes) goes in ``PluginLifecycle/run()``, flushing in
///   ``PluginLifecycle/shutdown()``.
///
/// ## Implement a custom cache store
/// ```swift
/// actor DictionaryCache: CacheStore {
///     var entries: [String: (head: CachedResponseHead, body: [UInt8])] = [:]
///     func entry(forKey key: String) -> CacheEntry? {
///         entries[key].map { CacheEntry(head: $0.head, body: InMemoryCachedBody($0.body)) }
///     }
///     func makeWriter(forKey key: String, head: CachedResponseHead, expectedLength: Int64?)
///         -> (any CacheEntryWriter)?
///     {
///         Writer(cache: self, key: key, head: head)  // collects chunks, calls commit(_:_:_:) on commit()
///     }
///     func commit(_ key: String, _ head: CachedResponseHead, _ body: [UInt8]) { entries[key] = (head, body) }
///     func updateHead(_ head: CachedResponseHead, forKey key: String, replacing previous: CachedResponseHead) {
///         if entries[key]?.head == previous { entries[key]?.head = head }
///     }
///     func removeEntry(forKey key: String) { entries[key] = nil }
///     func removeEntries(with policy: CacheStoragePolicy) {
///         entries = entries.filter { $0.value.head.storagePolicy != policy }
///     }
///     func removeAll() { entries = [:] }
/// }
/// ```
/// `Examples/CustomAdapters/DictionaryCache.swift` is the complete version, writer included.
public protocol CacheStore: PluginLifecycle {
    /// Returns the entry stored under `key`: its head, and its body unopened.
    /// - Parameter key: The cache key.
    /// - Returns: The committed entry, or `nil`.
    /// - Throws: ``ClientError`` when the storage fails.
    func entry(forKey key: String) async throws -> CacheEntry?

    /// Starts writing an entry under `key`; it becomes visible when the writer commits.
    /// - Parameters:
    ///   - key: The cache key.
    ///   - head: The entry's head.
    ///   - expectedLength: The body length the server announced, or `nil` when unknown (always for a body the
    ///     pipeline decodes before storing it).
    /// - Returns: A writer, or `nil` when the store declines the entry (for example, over its size cap).
    /// - Throws: ``ClientError`` when the storage fails.
    func makeWriter(forKey key: String, head: CachedResponseHead, expectedLength: Int64?) async throws
        -> (any CacheEntryWriter)?

    /// Replaces the head of the entry under `key`, keeping its body (after a `304`), but only while that entry's
    /// head is still `previous`, the head the revalidated lookup returned: when another writer committed a new
    /// entry meanwhile, the new entry keeps its own head, and the old validators never land on a newer body.
    /// - Parameters:
    ///   - head: The new head.
    ///   - key: The cache key.
    ///   - previous: The head the lookup returned; the update happens only when the stored head equals it.
    /// - Throws: ``ClientError`` when the storage fails.
    func updateHead(_ head: CachedResponseHead, forKey key: String, replacing previous: CachedResponseHead)
        async throws

    /// Removes the entry under `key`, if any.
    /// - Parameter key: The cache key.
    /// - Throws: ``ClientError`` when the storage fails.
    func removeEntry(forKey key: String) async throws

    /// Removes every entry stored with `policy` (ASIHTTPRequest's `clearCachedResponsesForStoragePolicy:`).
    /// - Parameter policy: The storage policy.
    /// - Throws: ``ClientError`` when the storage fails.
    func removeEntries(with policy: CacheStoragePolicy) async throws

    /// Removes every entry.
    /// - Throws: ``ClientError`` when the storage fails.
    func removeAll() async throws
}
