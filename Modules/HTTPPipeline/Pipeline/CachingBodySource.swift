import HTTPCore
import Synchronization

/// Passes a body through and stores it in the cache once it has been read to the end.
///
/// Bodies larger than the limit, bodies given up with `discard()` and bodies that fail are not stored.
final class CachingBodySource: ResponseBodySource {
    private let base: any ResponseBodySource
    private let key: String
    private let store: any CacheStore
    private let maxSize: Int
    // The entry being filled; nil once it was stored or given up.
    private let entry: Mutex<CachedResponse?>

    init(base: any ResponseBodySource, entry: CachedResponse, key: String, store: any CacheStore, maxSize: Int) {
        self.base = base
        self.key = key
        self.store = store
        self.maxSize = maxSize
        self.entry = Mutex(entry)
    }

    func next() async throws -> [UInt8]? {
        let chunk: [UInt8]?
        do {
            chunk = try await base.next()
        } catch {
            entry.withLock { $0 = nil }
            throw error
        }
        guard let chunk else {
            if let complete = entry.withLock({ entry in defer { entry = nil }; return entry }) {
                try await staged(.cache) { try await store.store(complete, forKey: key) }
            }
            return nil
        }
        entry.withLock { entry in
            guard entry != nil else { return }
            if entry!.body.count + chunk.count > maxSize { entry = nil } else { entry!.body.append(contentsOf: chunk) }
        }
        return chunk
    }

    func discard() async {
        entry.withLock { $0 = nil }
        await base.discard()
    }
}
