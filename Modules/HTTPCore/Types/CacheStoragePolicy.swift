/// How long a cache entry is kept (ASIHTTPRequest's `ASICacheStoragePolicy`).
///
/// A request chooses it with ``RequestOptions/cacheStoragePolicy``; the entry carries it in
/// ``CachedResponseHead/storagePolicy``, and ``CacheStore/removeEntries(with:)`` removes every entry of one policy.
public enum CacheStoragePolicy: Sendable, Hashable, CaseIterable {
    /// Kept until the session ends (`ASICacheForSessionDurationCacheStoragePolicy`, ASIHTTPRequest's default): a
    /// store that outlives the process removes these entries when it starts or shuts down, and
    /// `removeEntries(with: .sessionDuration)` is the cache part of ASIHTTPRequest's `clearSession`.
    case sessionDuration
    /// Kept across launches until removed or evicted (`ASICachePermanentlyCacheStoragePolicy`).
    case permanent
}
