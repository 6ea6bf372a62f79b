import DiskCache
import Foundation
import HTTPCore
import TestSupport

/// A temporary cache directory and helpers to write and read entries in it.
struct DiskCacheFixture {
    let root: String

    init() throws {
        root = try DataPath.directory() + "/cache"
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: URL(filePath: root).deletingLastPathComponent().path)
    }

    func store(
        maxSize: Int64 = 512 << 20, clearsSessionEntries: Bool = true, synchronizes: Bool = false
    ) -> DiskCacheStore {
        DiskCacheStore(
            configuration: .init(
                directory: root, maxSize: maxSize, clearsSessionEntriesAtStart: clearsSessionEntries,
                synchronizesWrites: synchronizes))
    }

    static func head(_ tag: String, policy: CacheStoragePolicy = .permanent) -> CachedResponseHead {
        var fields = HTTPFields()
        fields[.eTag] = "\"\(tag)\""
        return CachedResponseHead(
            status: .ok, headerFields: fields, storedAt: Date(timeIntervalSince1970: 1_700_000_000),
            expiresAt: nil, storagePolicy: policy)
    }

    /// Commits `body` under `key` in chunks of 1000 bytes.
    static func commit(
        _ store: DiskCacheStore, _ key: String, _ body: [UInt8], tag: String = "t",
        policy: CacheStoragePolicy = .permanent
    ) async throws {
        guard
            let writer = try await store.makeWriter(
                forKey: key, head: head(tag, policy: policy), expectedLength: Int64(body.count))
        else { throw ClientError(.internalError, message: "declined") }
        var offset = 0
        repeat {
            let end = min(offset + 1000, body.count)
            _ = try await writer.write(Array(body[offset..<end]))
            offset = end
        } while offset < body.count
        try await writer.commit()
    }

    static func body(_ store: DiskCacheStore, _ key: String) async throws -> [UInt8]? {
        guard let entry = try await store.entry(forKey: key) else { return nil }
        return try await entry.body.open()?.collect(upTo: .max)
    }

    var entries: [String] { DataPath.listing(root + "/entries") }
    var heads: [String] { entries.filter { $0.hasSuffix(".head") } }
    var bodies: [String] { entries.filter { $0.hasSuffix(".body") } }
    var temporaries: [String] { DataPath.listing(root + "/tmp") }
}
