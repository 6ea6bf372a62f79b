import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@Suite struct InMemoryDefaultsConformanceTests {
    @Test func memoryCookieJar() async throws {
        try await CookieStoreConformance.run { MemoryCookieJar() }
    }

    @Test func sessionCredentialStore() async throws {
        try await CredentialStoreConformance.run { SessionCredentialStore() }
    }

    @Test func memoryCacheStore() async throws {
        try await CacheStoreConformance.run { MemoryCacheStore() }
        try await CacheStoreConformance.run(declinesEntriesOver: 4096) { MemoryCacheStore(maxEntrySize: 4096) }
    }

    @Test func recordingCredentialStoreForwards() async throws {
        try await CredentialStoreConformance.run { RecordingCredentialStore() }
    }

    @Test func suitesCatchABrokenStore() async throws {
        await #expect(throws: ConformanceFailure.self) {
            try await CacheStoreConformance.run { ForgetfulCache() }
        }
        let leaky = await #expect(throws: ConformanceFailure.self) {
            try await CacheStoreConformance.run { LeakyCache() }
        }
        #expect(leaky?.check == "commitMakesVisible")
        let greedy = await #expect(throws: ConformanceFailure.self) {
            try await CacheStoreConformance.run(declinesEntriesOver: 4096) { MemoryCacheStore(maxEntrySize: 1 << 20) }
        }
        #expect(greedy?.check == "declinesOversizedEntries")
    }
}

/// Stores nothing: the cache suite must reject it.
struct ForgetfulCache: CacheStore {
    func entry(forKey key: String) async throws -> CacheEntry? { nil }
    func makeWriter(forKey key: String, head: CachedResponseHead, expectedLength: Int64?) async throws
        -> (any CacheEntryWriter)?
    { nil }
    func updateHead(_ head: CachedResponseHead, forKey key: String, replacing previous: CachedResponseHead)
        async throws {}
    func removeEntry(forKey key: String) async throws {}
    func removeEntries(with policy: CacheStoragePolicy) async throws {}
    func removeAll() async throws {}
}

/// Shows an entry while it is still being written: the suite must reject it.
final class LeakyCache: CacheStore {
    private let entries = Mutex<[String: (CachedResponseHead, [UInt8])]>([:])

    func entry(forKey key: String) async throws -> CacheEntry? {
        entries.withLock { $0[key] }.map { CacheEntry(head: $0.0, body: InMemoryCachedBody($0.1)) }
    }
    func makeWriter(forKey key: String, head: CachedResponseHead, expectedLength: Int64?) async throws
        -> (any CacheEntryWriter)?
    {
        entries.withLock { $0[key] = (head, []) }
        return Writer(cache: self, key: key)
    }
    func updateHead(_ head: CachedResponseHead, forKey key: String, replacing previous: CachedResponseHead)
        async throws {}
    func removeEntry(forKey key: String) async throws { entries.withLock { $0[key] = nil } }
    func removeEntries(with policy: CacheStoragePolicy) async throws {}
    func removeAll() async throws { entries.withLock { $0 = [:] } }

    struct Writer: CacheEntryWriter {
        let cache: LeakyCache
        let key: String
        func write(_ bytes: [UInt8]) async throws -> CacheWriteOutcome {
            cache.entries.withLock { $0[key]?.1 += bytes }
            return .accepted
        }
        func commit() async throws {}
        func abort() async {}
    }
}
