public import HTTPCore
import Synchronization

/// A cache store in a dictionary, with a size cap, which records every call. Can be told to fail.
///
/// Bodies stream in through a writer and become visible on commit; a body larger than ``maxEntrySize`` is
/// declined (up front when its announced length is too large, else at the chunk that crosses the cap).
public final class MemoryCacheStore: CacheStore {
    /// One committed entry.
    public struct Entry: Sendable, Hashable {
        /// The head.
        public var head: CachedResponseHead
        /// The body bytes.
        public var body: [UInt8]
    }

    struct State {
        var entries: [String: Entry] = [:]
        var calls: [MemoryCacheStoreCall] = []
        var failure: ClientError?
    }

    /// The largest body kept, in bytes.
    public let maxEntrySize: Int
    let state = Mutex(State())

    /// Creates an empty store.
    /// - Parameter maxEntrySize: The largest body kept, in bytes. Default 8 MiB.
    public init(maxEntrySize: Int = 8 << 20) {
        self.maxEntrySize = maxEntrySize
    }

    /// Returns the committed entry, recording the lookup; the body is recorded when opened.
    /// - Parameter key: The key.
    /// - Returns: The entry, or `nil`.
    /// - Throws: The error set with ``failEveryCall(with:)``.
    public func entry(forKey key: String) async throws -> CacheEntry? {
        try record(.entry(key: key)) { state in
            state.entries[key].map {
                CacheEntry(head: $0.head, body: RecordedBody(bytes: $0.body, key: key, store: self))
            }
        }
    }

    /// Starts an entry; declines it when `expectedLength` is over ``maxEntrySize``.
    /// - Parameters:
    ///   - key: The key.
    ///   - head: The head.
    ///   - expectedLength: The announced body length.
    /// - Returns: A writer, or `nil` when declined.
    /// - Throws: The error set with ``failEveryCall(with:)``.
    public func makeWriter(forKey key: String, head: CachedResponseHead, expectedLength: Int64?) async throws
        -> (any CacheEntryWriter)?
    {
        try record(.makeWriter(key: key, expectedLength: expectedLength)) { _ in
            if let expectedLength, expectedLength > Int64(maxEntrySize) { return nil }
            return MemoryCacheEntryWriter(store: self, key: key, head: head)
        }
    }

    /// Replaces the head of an existing entry while it is still `previous`.
    /// - Parameters:
    ///   - head: The new head.
    ///   - key: The key.
    ///   - previous: The head the lookup returned.
    /// - Throws: The error set with ``failEveryCall(with:)``.
    public func updateHead(_ head: CachedResponseHead, forKey key: String, replacing previous: CachedResponseHead)
        async throws
    {
        try record(.updateHead(key: key)) { state in
            if state.entries[key]?.head == previous { state.entries[key]?.head = head }
        }
    }

    /// Removes the entry.
    /// - Parameter key: The key.
    /// - Throws: The error set with ``failEveryCall(with:)``.
    public func removeEntry(forKey key: String) async throws {
        try record(.removeEntry(key: key)) { state in state.entries[key] = nil }
    }

    /// Removes the entries with the storage policy.
    /// - Parameter policy: The storage policy.
    /// - Throws: The error set with ``failEveryCall(with:)``.
    public func removeEntries(with policy: CacheStoragePolicy) async throws {
        try record(.removeEntries(policy)) { state in
            state.entries = state.entries.filter { $0.value.head.storagePolicy != policy }
        }
    }

    /// Removes every entry.
    /// - Throws: The error set with ``failEveryCall(with:)``.
    public func removeAll() async throws {
        try record(.removeAll) { state in state.entries = [:] }
    }

    /// Makes every later call throw `error` (or succeed again with `nil`), writers' calls included.
    /// - Parameter error: The error to throw.
    public func failEveryCall(with error: ClientError?) {
        state.withLock { $0.failure = error }
    }

    /// The committed entries by key.
    public var entries: [String: Entry] { state.withLock { $0.entries } }
    /// Every call made to the store, its writers and its bodies, in order.
    public var calls: [MemoryCacheStoreCall] { state.withLock { $0.calls } }
    /// How many lookups were made.
    public var readCount: Int { calls.count(where: { if case .entry = $0 { true } else { false } }) }
    /// How many commits were made.
    public var writeCount: Int { calls.count(where: { if case .commit = $0 { true } else { false } }) }
    /// How many times a body was opened.
    public var bodyOpenCount: Int { calls.count(where: { if case .openBody = $0 { true } else { false } }) }

    /// Records `call`, throws the injected failure, else runs `body` under the lock.
    func record<T>(_ call: MemoryCacheStoreCall, _ body: (inout State) throws -> T) throws -> T {
        try state.withLock { state in
            state.calls.append(call)
            if let failure = state.failure { throw failure }
            return try body(&state)
        }
    }
}

/// A body of a ``MemoryCacheStore`` entry that records when it is opened.
struct RecordedBody: CachedBody {
    let bytes: [UInt8]
    let key: String
    let store: MemoryCacheStore

    func open() async throws -> ResponseBody? {
        try store.record(.openBody(key: key)) { _ in ResponseBody(bytes: bytes) }
    }
}
