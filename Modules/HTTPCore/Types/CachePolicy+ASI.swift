extension CachePolicy {
    /// Use the client's default policy (`ASIUseDefaultCachePolicy`, 0): the empty set. A request whose policy is
    /// empty is given the client's default
    /// (`Client.Configuration.cache.defaultPolicy`, ASIHTTPRequest's `defaultCachePolicy`) when it starts.
    public static let useDefault: CachePolicy = []
    /// Use a fresh entry without asking the server, revalidate a stale one with `If-None-Match` /
    /// `If-Modified-Since` (`ASIAskServerIfModifiedWhenStaleCachePolicy`, 4): the cache's default.
    public static let askServerIfModifiedWhenStale = CachePolicy(rawValue: 4)
    /// Always revalidate a stored entry with the server, fresh or not (`ASIAskServerIfModifiedCachePolicy`, 8).
    public static let askServerIfModified = CachePolicy(rawValue: 8)
    /// Use any stored entry, even a stale one, without asking the server; load only what is not stored
    /// (`ASIOnlyLoadIfNotCachedCachePolicy`, 16).
    public static let onlyLoadIfNotCached = CachePolicy(rawValue: 16)
    /// Never touch the network: answer from a stored entry, fresh or stale, or with a `504` when nothing is stored
    /// (`ASIDontLoadCachePolicy`, 32).
    public static let dontLoad = CachePolicy(rawValue: 32)
    /// When the request fails (no connection, a timeout), answer from a stored entry instead, even a stale one,
    /// without an error (`ASIFallbackToCacheIfLoadFailsCachePolicy`, 64). Combine it with a reading mode.
    public static let fallbackToCacheIfLoadFails = CachePolicy(rawValue: 64)

    /// The bits that say how a stored entry is read; a policy with none of them takes the default's.
    public static let readingModes: CachePolicy = [
        .doNotReadFromCache, .askServerIfModifiedWhenStale, .askServerIfModified, .onlyLoadIfNotCached, .dontLoad,
    ]

    /// The policy a request runs with: `self`, or `defaultPolicy` when `self` is empty; a policy that names no
    /// reading mode (for example `[.doNotWriteToCache]` or `[.fallbackToCacheIfLoadFails]`) takes the reading
    /// mode of `defaultPolicy` (ASIHTTPRequest read nothing then; see Docs/Decisions/0011).
    /// - Parameter defaultPolicy: The client's default policy.
    /// - Returns: The effective policy.
    public func resolved(default defaultPolicy: CachePolicy) -> CachePolicy {
        let base = defaultPolicy.isEmpty ? CachePolicy.askServerIfModifiedWhenStale : defaultPolicy
        if isEmpty { return base }
        guard isDisjoint(with: Self.readingModes) else { return self }
        return union(base.intersection(Self.readingModes))
    }
}
