import FoundationEssentials
import Glibc
import HTTPCore
import HSTSFile
import TestSupport
import Testing

/// The file-backed store: loading, atomic 0600 writes, merging with another writer, and hostile files.
@Suite struct HSTSFileStoreTests {
    static func entry(_ host: String, subdomains: Bool = false, in seconds: Double = 3_600) -> HSTSEntry {
        HSTSEntry(host: host, includesSubdomains: subdomains, expires: Date().addingTimeInterval(seconds))
    }

    @Test func aMissingFileIsAnEmptyStoreAndSaveWritesCurlsFormatOwnerOnly() async throws {
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/hsts.txt"
        let store = try HSTSFileStore(path: path)
        #expect(store.isKnownEmpty)
        try store.save()
        #expect(DataPath.read(path) == nil, "nothing changed: nothing written")
        await store.update(Self.entry("secure.example", subdomains: true))
        #expect(await store.entry(covering: "www.secure.example")?.host == "secure.example")
        try await store.shutdown()
        let text = String(decoding: DataPath.read(path) ?? [], as: UTF8.self)
        #expect(text.hasPrefix(CurlHSTSFile.header) && text.contains("\n.secure.example \""), "\(text)")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let reopened = try HSTSFileStore(path: path)
        #expect(await reopened.entry(covering: "a.secure.example") != nil)
    }

    @Test func twoStoresOnOneFileKeepEachOthersChanges() async throws {
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/hsts.txt"
        let seed = try HSTSFileStore(path: path)
        await seed.update(Self.entry("shared.example"))
        await seed.update(Self.entry("gone.example"))
        try seed.save()

        let first = try HSTSFileStore(path: path)
        let second = try HSTSFileStore(path: path)
        await first.update(Self.entry("first.example"))
        await first.update(HSTSEntry(host: "gone.example", includesSubdomains: false, expires: .distantPast))
        await second.update(Self.entry("second.example", subdomains: true))
        try first.save()
        try second.save()
        let hosts = Set(try HSTSFileStore(path: path).entries.map(\.host))
        #expect(hosts == ["shared.example", "first.example", "second.example"])
        #expect(Set(second.entries.map(\.host)) == hosts, "the saving store adopts the other's entries")
    }

    @Test func unreadableFilesAreTypedErrors() throws {
        let huge = #expect(throws: ClientError.self) { try HSTSFileStore(path: "/dev/zero") }
        #expect(huge?.code == .storageFailed)
        #expect(huge?.stage == .hsts)
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let folder = #expect(throws: ClientError.self) { try HSTSFileStore(path: directory) }
        #expect(folder?.code == .storageFailed)
    }

    @Test func skippedLinesAreCountedAndTheRestLoads() async throws {
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/hsts.txt"
        try DataPath.write(Array("junk\nok.example \"unlimited\"\nexpired.example \"20000101 00:00:00\"\n".utf8),
                           to: path)
        let store = try HSTSFileStore(path: path)
        #expect(store.skippedLines == 1)
        #expect(store.entries.map(\.host) == ["ok.example"], "expired entries are dropped on load")
    }
}
