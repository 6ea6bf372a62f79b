public import HTTPCore

/// One call a ``MemoryCacheStore`` recorded, with the key it was for.
public enum MemoryCacheStoreCall: Sendable, Hashable {
    /// ``MemoryCacheStore/entry(forKey:)``: a head-only lookup.
    case entry(key: String)
    /// ``CachedBody/open()`` on an entry's body.
    case openBody(key: String)
    /// ``MemoryCacheStore/makeWriter(forKey:head:expectedLength:)``.
    case makeWriter(key: String, expectedLength: Int64?)
    /// ``CacheEntryWriter/write(_:)``, with the chunk's size.
    case write(key: String, byteCount: Int)
    /// ``CacheEntryWriter/commit()``.
    case commit(key: String)
    /// ``CacheEntryWriter/abort()``.
    case abort(key: String)
    /// A writer declined the entry because it grew past the cap.
    case decline(key: String)
    /// ``MemoryCacheStore/updateHead(_:forKey:replacing:)``.
    case updateHead(key: String)
    /// ``MemoryCacheStore/removeEntry(forKey:)``.
    case removeEntry(key: String)
    /// ``MemoryCacheStore/removeEntries(with:)``.
    case removeEntries(CacheStoragePolicy)
    /// ``MemoryCacheStore/removeAll()``.
    case removeAll
}
