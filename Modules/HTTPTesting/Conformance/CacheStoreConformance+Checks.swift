import FoundationEssentials
import HTTPCore

extension CacheStoreConformance {
    /// A head and body to store.
    struct Sample {
        var head: CachedResponseHead
        var body: [UInt8]

        init(head: CachedResponseHead, body: [UInt8]) {
            self.head = head
            self.body = body
        }

        init(version: Int, policy: CacheStoragePolicy = .sessionDuration) {
            var fields = HTTPFields()
            fields[.contentType] = "application/octet-stream"
            fields[.eTag] = "\"v\(version)\""
            fields[.vary] = "Accept-Language"
            let storedAt = Date(timeIntervalSince1970: 1_700_000_000 + Double(version))
            var varying = HTTPFields()
            varying[.acceptLanguage] = "de-\(version)"
            head = CachedResponseHead(
                status: .ok, headerFields: fields, storedAt: storedAt, expiresAt: storedAt + 60,
                storagePolicy: policy, varyingRequestFields: varying)
            body = (0..<(1000 * version)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ version) }
        }
    }
}

extension ConformanceChecker {
    /// Starts a writer and writes the sample's body in several chunks; the writer must accept them.
    func writer(
        _ store: any CacheStore,
        _ key: String,
        _ sample: CacheStoreConformance.Sample
    ) async throws -> any CacheEntryWriter {
        let writer = try await store.makeWriter(
            forKey: key, head: sample.head, expectedLength: Int64(sample.body.count))
        guard let writer else {
            throw ConformanceFailure(suite: suite, check: check, detail: "a small entry was declined up front")
        }
        var offset = 0
        while offset < sample.body.count {
            let end = min(offset + 333, sample.body.count)
            let outcome = try await writer.write(Array(sample.body[offset..<end]))
            try expect(outcome == .accepted, "a chunk of a small entry was declined")
            offset = end
        }
        return writer
    }

    /// Expects the entry under `key` to have the sample's head and body.
    func expectEntry(
        _ store: any CacheStore,
        _ key: String,
        _ sample: CacheStoreConformance.Sample,
        _ when: String
    ) async throws {
        guard let entry = try await store.entry(forKey: key) else {
            throw ConformanceFailure(suite: suite, check: check, detail: "no entry \(when)")
        }
        let head = entry.head
        try expect(head.status == sample.head.status, "the status changed in the store \(when)")
        try expect(head.headerFields == sample.head.headerFields, "the header fields changed in the store \(when)")
        try expect(head.storedAt == sample.head.storedAt, "the stored date changed in the store \(when)")
        try expect(head.expiresAt == sample.head.expiresAt, "the expiry changed in the store \(when)")
        try expect(head.storagePolicy == sample.head.storagePolicy, "the storage policy changed \(when)")
        try expect(
            head.varyingRequestFields == sample.head.varyingRequestFields, "the Vary request fields changed \(when)")
        let body = try await CacheStoreConformance.body(of: entry)
        try expect(body == sample.body, "the body changed in the store \(when)")
    }

    /// Expects an entry over `cap` to be declined, up front or while written, and never to become visible.
    func checkDeclines(over cap: Int, store: any CacheStore) async throws {
        let key = "https://example.com/large"
        let small = CacheStoreConformance.Sample(version: 1)
        try await writer(store, key, small).commit()
        let large = CacheStoreConformance.Sample(head: small.head, body: [UInt8](repeating: 0x2A, count: cap + 1))
        for expectedLength in [Int64(cap + 1), nil] {
            try expect(
                try await declines(store, key, large, expectedLength: expectedLength),
                "an entry of \(cap + 1) bytes (announced length \(expectedLength.map(String.init) ?? "nil")) was "
                    + "accepted over a cap of \(cap)")
            try await expectEntry(store, key, small, "after a larger entry was declined")
        }
    }

    private func declines(
        _ store: any CacheStore,
        _ key: String,
        _ sample: CacheStoreConformance.Sample,
        expectedLength: Int64?
    ) async throws -> Bool {
        guard let writer = try await store.makeWriter(forKey: key, head: sample.head, expectedLength: expectedLength)
        else { return true }
        var offset = 0
        while offset < sample.body.count {
            let end = min(offset + 4096, sample.body.count)
            if try await writer.write(Array(sample.body[offset..<end])) == .declined {
                await writer.abort()
                return true
            }
            offset = end
        }
        await writer.abort()
        return false
    }
}
