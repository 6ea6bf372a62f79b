import FoundationEssentials
public import HTTPCore

/// Checks that a ``CacheStore`` keeps entries byte for byte and that the last write wins.
public enum CacheStoreConformance {
    /// Runs every check, each on a fresh store.
    /// - Parameter makeStore: Makes an empty store.
    /// - Throws: ``ConformanceFailure`` for the first failed check, or what the store throws.
    public static func run(_ makeStore: () async throws -> any CacheStore) async throws {
        var checker = ConformanceChecker(suite: "CacheStoreConformance")
        var fields = HTTPFields()
        fields[.contentType] = "application/octet-stream"
        fields[.eTag] = "\"v1\""
        let storedAt = Date(timeIntervalSince1970: 1_700_000_000)
        let entry = CachedResponse(status: .ok, headerFields: fields, body: (0...255).map { UInt8($0) },
                                   storedAt: storedAt, expiresAt: storedAt + 60)

        checker.check = "missingIsNil"
        let store = try await makeStore()
        var found = try await store.cachedResponse(forKey: "https://example.com/a")
        try checker.expect(found == nil, "an empty store returned an entry")

        checker.check = "roundTrip"
        try await store.store(entry, forKey: "https://example.com/a")
        found = try await store.cachedResponse(forKey: "https://example.com/a")
        try checker.expect(found?.body == entry.body, "the body changed in the store")
        try checker.expect(found?.headerFields == entry.headerFields, "the header fields changed in the store")
        try checker.expect(found?.status == entry.status, "the status changed in the store")
        try checker.expect(found?.expiresAt == entry.expiresAt, "the expiry changed in the store")

        checker.check = "lastWriteWins"
        var newer = entry
        newer.body = Array("newer".utf8)
        try await store.store(newer, forKey: "https://example.com/a")
        found = try await store.cachedResponse(forKey: "https://example.com/a")
        try checker.expect(found?.body == newer.body, "the second write did not replace the first")

        checker.check = "keysAreDistinct"
        found = try await store.cachedResponse(forKey: "https://example.com/b")
        try checker.expect(found == nil, "another key returned an entry")

        checker.check = "remove"
        try await store.removeResponse(forKey: "https://example.com/a")
        found = try await store.cachedResponse(forKey: "https://example.com/a")
        try checker.expect(found == nil, "a removed entry was still returned")
        try await store.removeResponse(forKey: "https://example.com/a")  // removing twice is fine
    }
}
