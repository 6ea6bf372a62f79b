import HTTPCore
import Synchronization

/// A cache store kept in an actor's dictionary, with a size cap. The pipeline decides freshness; the store keeps
/// entries, makes a written entry visible only when it is committed, and declines bodies over its cap.
actor DictionaryCache: CacheStore {
    private var entries: [String: (head: CachedResponseHead, body: [UInt8])] = [:]
    let maxEntrySize: Int

    init(maxEntrySize: Int = 1 << 20) {
        self.maxEntrySize = maxEntrySize
    }

    var keys: [String] { entries.keys.sorted() }

    func entry(forKey key: String) -> CacheEntry? {
        entries[key].map { CacheEntry(head: $0.head, body: InMemoryCachedBody($0.body)) }
    }

    func makeWriter(forKey key: String, head: CachedResponseHead, expectedLength: Int64?) -> (any CacheEntryWriter)? {
        if let expectedLength, expectedLength > Int64(maxEntrySize) { return nil }
        return Writer(cache: self, key: key, head: head)
    }

    func updateHead(_ head: CachedResponseHead, forKey key: String, replacing previous: CachedResponseHead) {
        if entries[key]?.head == previous { entries[key]?.head = head }
    }

    func removeEntry(forKey key: String) { entries[key] = nil }

    func removeEntries(with policy: CacheStoragePolicy) {
        entries = entries.filter { $0.value.head.storagePolicy != policy }
    }

    func removeAll() { entries = [:] }

    private func commit(_ key: String, _ head: CachedResponseHead, _ body: [UInt8]) { entries[key] = (head, body) }

    /// Collects the body in its own buffer; nothing reaches the dictionary before `commit()`.
    final class Writer: CacheEntryWriter {
        private let cache: DictionaryCache
        private let key: String
        private let head: CachedResponseHead
        private let body = Mutex<[UInt8]?>([])  // nil once declined, aborted or committed

        init(cache: DictionaryCache, key: String, head: CachedResponseHead) {
            self.cache = cache
            self.key = key
            self.head = head
        }

        func write(_ bytes: [UInt8]) -> CacheWriteOutcome {
            body.withLock { body in
                guard let count = body?.count, count + bytes.count <= cache.maxEntrySize else {
                    body = nil
                    return .declined
                }
                body!.append(contentsOf: bytes)
                return .accepted
            }
        }

        func commit() async throws {
            guard let complete = body.withLock({ body in defer { body = nil }; return body }) else {
                throw ClientError(.internalError, message: "Committed an entry that was declined or aborted")
            }
            await cache.commit(key, head, complete)
        }

        func abort() { body.withLock { $0 = nil } }
    }
}
