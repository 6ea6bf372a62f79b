import HTTPCore
import HTTPPipeline
import HTTPTesting
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
    }

    @Test func recordingCredentialStoreForwards() async throws {
        try await CredentialStoreConformance.run { RecordingCredentialStore() }
    }

    @Test func suitesCatchABrokenStore() async throws {
        await #expect(throws: ConformanceFailure.self) {
            try await CacheStoreConformance.run { ForgetfulCache() }
        }
    }
}

/// Stores nothing: the cache suite must reject it.
struct ForgetfulCache: CacheStore {
    func cachedResponse(forKey key: String) async throws -> CachedResponse? { nil }
    func store(_ response: CachedResponse, forKey key: String) async throws {}
    func removeResponse(forKey key: String) async throws {}
}
