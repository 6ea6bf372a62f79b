import CookieFile
import FoundationEssentials
import HTTPCore
import Logging
import TestSupport
import Testing

/// `CookieFileStore` writes only what it reads back.
@Suite struct CookieFileStoreRoundTripTests {
    let url = URL(string: "http://www.example.com/")!

    /// A cookie with a newline in its value (from `restore`, which checks nothing) once wrote two lines, and the
    /// second was a cookie for another domain on the next read. It now stays in memory, with a warning.
    @Test func aCookieTheFileCannotHoldStaysInMemoryOnly() async throws {
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/cookies.txt"
        let recorder = LogRecorder()
        let store = try CookieFileStore(
            path: path, configuration: .init(logger: Logger(label: "test") { _ in recorder }))
        let expiry = Date(timeIntervalSinceNow: 3600)
        store.restore([
            Cookie(name: "good", value: "1", domain: "www.example.com", expires: expiry),
            Cookie(name: "bad", value: "x\n.evil.example\tTRUE\t/\tFALSE\t0\tinjected\ty", domain: "www.example.com",
                   expires: expiry),
        ])
        try store.save()
        let text = String(decoding: DataPath.read(path) ?? [], as: UTF8.self)
        #expect(text.contains("\tgood\t1") && !text.contains("evil"))
        #expect(recorder.entries.contains { $0.level == .warning && $0.text.contains("\"count\": 1") })
        #expect(Set(store.allCookies.map(\.name)) == ["good", "bad"], "still sent by this process")
        #expect(try CookieFileStore(path: path).allCookies.map(\.name) == ["good"])
        // A later save neither writes it nor drops it from memory.
        store.restore([Cookie(name: "later", value: "2", domain: "www.example.com", expires: expiry)])
        try store.save()
        #expect(Set(store.allCookies.map(\.name)) == ["good", "bad", "later"])
        #expect(Set(try CookieFileStore(path: path).allCookies.map(\.name)) == ["good", "later"])
    }

    /// Paths are not limited by the storage, so a jar could outgrow the 32 MiB the store reads; such a file is
    /// not written (the old one stays), where before it was written and every later open failed.
    @Test func aFileLargerThanTheReadLimitIsNotWritten() async throws {
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/cookies.txt"
        let store = try CookieFileStore(path: path)
        let expiry = Date(timeIntervalSinceNow: 3600)
        store.restore([Cookie(name: "small", value: "1", domain: "www.example.com", expires: expiry)])
        try store.save()
        let before = DataPath.read(path)
        let longPath = "/" + String(repeating: "p", count: 1 << 20)
        store.restore((0..<33).map {
            Cookie(name: "big\($0)", value: "v", domain: "d\($0).example.com", path: longPath, expires: expiry)
        })
        let error = try #require(throws: ClientError.self) { try store.save() }
        #expect(error.code == .storageFailed)
        #expect(error.message.hasPrefix("The cookie file would be larger than 32 MiB"))
        #expect(DataPath.read(path) == before)
        #expect(try CookieFileStore(path: path).allCookies.map(\.name) == ["small"])
    }
}
