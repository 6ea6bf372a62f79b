import HTTPCore

/// A cache store kept in an actor's dictionary. The pipeline decides freshness; the store only keeps entries.
actor DictionaryCache: CacheStore {
    private var entries: [String: CachedResponse] = [:]

    var keys: [String] { entries.keys.sorted() }

    func cachedResponse(forKey key: String) -> CachedResponse? { entries[key] }

    func store(_ response: CachedResponse, forKey key: String) { entries[key] = response }

    func removeResponse(forKey key: String) { entries[key] = nil }
}
