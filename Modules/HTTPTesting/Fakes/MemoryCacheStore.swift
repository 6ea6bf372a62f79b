public import HTTPCore
import Synchronization

/// A cache store in a dictionary, which counts reads and writes. Can be told to fail.
public final class MemoryCacheStore: CacheStore {
    private struct State {
        var entries: [String: CachedResponse] = [:]
        var reads = 0
        var writes = 0
        var failure: ClientError?
    }
    private let state = Mutex(State())

    /// Creates an empty store.
    public init() {}

    /// Returns the entry, counting the read.
    /// - Parameter key: The key.
    /// - Returns: The entry, or `nil`.
    /// - Throws: The error set with ``failEveryCall(with:)``.
    public func cachedResponse(forKey key: String) async throws -> CachedResponse? {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            state.reads += 1
            return state.entries[key]
        }
    }

    /// Stores the entry, counting the write.
    /// - Parameters:
    ///   - response: The entry.
    ///   - key: The key.
    /// - Throws: The error set with ``failEveryCall(with:)``.
    public func store(_ response: CachedResponse, forKey key: String) async throws {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            state.writes += 1
            state.entries[key] = response
        }
    }

    /// Removes the entry.
    /// - Parameter key: The key.
    /// - Throws: The error set with ``failEveryCall(with:)``.
    public func removeResponse(forKey key: String) async throws {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            state.entries[key] = nil
        }
    }

    /// Makes every later call throw `error` (or succeed again with `nil`).
    /// - Parameter error: The error to throw.
    public func failEveryCall(with error: ClientError?) {
        state.withLock { $0.failure = error }
    }

    /// The stored entries by key.
    public var entries: [String: CachedResponse] { state.withLock { $0.entries } }
    /// How many lookups were made.
    public var readCount: Int { state.withLock { $0.reads } }
    /// How many entries were stored.
    public var writeCount: Int { state.withLock { $0.writes } }
}
