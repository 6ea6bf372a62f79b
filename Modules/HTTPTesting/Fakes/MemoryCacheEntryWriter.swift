import HTTPCore
import Synchronization

/// Collects a ``MemoryCacheStore`` entry's body and publishes it on commit.
final class MemoryCacheEntryWriter: CacheEntryWriter {
    private struct Pending {
        var body: [UInt8] = []
        var isOpen = true
    }

    private let store: MemoryCacheStore
    private let key: String
    private let head: CachedResponseHead
    private let pending = Mutex(Pending())

    init(store: MemoryCacheStore, key: String, head: CachedResponseHead) {
        self.store = store
        self.key = key
        self.head = head
    }

    func write(_ bytes: [UInt8]) async throws -> CacheWriteOutcome {
        try store.record(.write(key: key, byteCount: bytes.count)) { _ in }
        let fits = pending.withLock { pending -> Bool in
            guard pending.isOpen, pending.body.count + bytes.count <= store.maxEntrySize else {
                pending = Pending(body: [], isOpen: false)
                return false
            }
            pending.body.append(contentsOf: bytes)
            return true
        }
        if fits { return .accepted }
        try store.record(.decline(key: key)) { _ in }
        return .declined
    }

    func commit() async throws {
        let body = pending.withLock { pending -> [UInt8]? in
            defer { pending = Pending(body: [], isOpen: false) }
            return pending.isOpen ? pending.body : nil
        }
        try store.record(.commit(key: key)) { state in
            guard let body else {
                throw ClientError(.internalError, message: "Committed a cache entry that was declined or aborted")
            }
            state.entries[key] = MemoryCacheStore.Entry(head: head, body: body)
        }
    }

    func abort() async {
        pending.withLock { $0 = Pending(body: [], isOpen: false) }
        store.state.withLock { $0.calls.append(.abort(key: key)) }
    }
}
