import CookieFile
import FoundationEssentials
import Glibc
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Logging
import Synchronization
import TestSupport
import Testing

@Suite struct CookieFileStoreTests {
    let url = URL(string: "https://www.example.com/app/page")!

    static func temporaryJar() throws -> (directory: String, path: String) {
        let directory = try DataPath.directory()
        return (directory, directory + "/cookies.txt")
    }

    static func text(_ path: String) -> String {
        String(decoding: DataPath.read(path) ?? [], as: UTF8.self)
    }

    @Test func writesTheNetscapeFormatCurlReads() async throws {
        let (directory, path) = try Self.temporaryJar()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try CookieFileStore(path: path)
        let expiry = Date(timeIntervalSinceNow: 3600)
        await store.store([
            Cookie(name: "plain", value: "1", domain: "www.example.com", path: "/app", expires: expiry),
            Cookie(name: "wide", value: "2", domain: "example.com", isHostOnly: false, expires: expiry,
                   isSecure: true),
            Cookie(name: "hidden", value: "3", domain: "www.example.com", expires: expiry, isHTTPOnly: true),
        ], receivedFrom: url)
        try store.save()
        let lines = Self.text(path).split(separator: "\n").map(String.init)
        #expect(lines.first == "# Netscape HTTP Cookie File")
        let seconds = Int64(expiry.timeIntervalSince1970.rounded(.down))
        #expect(lines.contains("www.example.com\tFALSE\t/app\tFALSE\t\(seconds)\tplain\t1"))
        #expect(lines.contains(".example.com\tTRUE\t/\tTRUE\t\(seconds)\twide\t2"))
        #expect(lines.contains("#HttpOnly_www.example.com\tFALSE\t/\tFALSE\t\(seconds)\thidden\t3"))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600, "cookies are credentials")

        let reopened = try CookieFileStore(path: path)
        let names = await reopened.cookies(for: url).map(\.name)
        #expect(Set(names) == ["plain", "wide", "hidden"])
        #expect(reopened.allCookies.first { $0.name == "hidden" }?.isHTTPOnly == true)
    }

    @Test func sessionCookiesAreWrittenOnlyWhenAskedAndExpiredOnesNever() async throws {
        let (directory, path) = try Self.temporaryJar()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = Cookie(name: "session", value: "s", domain: "www.example.com")
        let lasting = Cookie(name: "lasting", value: "l", domain: "www.example.com",
                             expires: Date(timeIntervalSinceNow: 3600))
        let dropped = try CookieFileStore(path: path)
        await dropped.store([session, lasting], receivedFrom: url)
        try dropped.save()
        #expect(!Self.text(path).contains("session") && Self.text(path).contains("lasting"))

        let kept = try CookieFileStore(path: path, configuration: .init(keepsSessionCookies: true))
        await kept.store([session], receivedFrom: url)
        try kept.save()
        #expect(Self.text(path).contains("www.example.com\tFALSE\t/\tFALSE\t0\tsession\ts"))

        let junked = try CookieFileStore(path: path, configuration: .init(loadsSessionCookies: false))
        #expect(junked.allCookies.map(\.name) == ["lasting"], "-j: the session cookie is not loaded")

        try DataPath.write(Array((Self.text(path) + "www.example.com\tFALSE\t/\tFALSE\t1000\told\tx\n").utf8),
                           to: path)
        let reread = try CookieFileStore(path: path, configuration: .init(keepsSessionCookies: true))
        #expect(!reread.allCookies.contains { $0.name == "old" }, "expired in the file: dropped on load")
        await reread.store([Cookie(name: "new", value: "n", domain: "www.example.com")], receivedFrom: url)
        try reread.save()
        #expect(!Self.text(path).contains("\told\t"), "and not written back")
    }

    @Test func malformedLinesAreSkippedWithAWarning() async throws {
        let (directory, path) = try Self.temporaryJar()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let far = Int(Date().timeIntervalSince1970) + 3600
        let file = """
            # Netscape HTTP Cookie File

            www.example.com\tFALSE\t/\tFALSE\t\(far)\tgood\tyes
            this line is not a cookie
            www.example.com\tMAYBE\t/\tFALSE\t\(far)\tbadflag\tsecret-one
            www.example.com\tFALSE\t/\tFALSE\tsoon\tbadexpiry\tsecret-two
            www.example.com\tFALSE\t/\tFALSE\t\(far)\tnovalue
            #HttpOnly_.example.com\tTRUE\t/\tFALSE\t\(far)\thidden\tyes\r

            """
        try DataPath.write(Array(file.utf8), to: path)
        let recorder = LogRecorder()
        let store = try CookieFileStore(
            path: path, configuration: .init(logger: Logger(label: "test") { _ in recorder }))
        #expect(Set(store.allCookies.map(\.name)) == ["good", "novalue", "hidden"])
        #expect(store.allCookies.first { $0.name == "novalue" }?.value == "", "six fields: an empty value")
        let warnings = recorder.entries
        #expect(warnings.map(\.line) == ["4", "5", "6"])
        #expect(warnings.allSatisfy { $0.level == .warning && !$0.text.contains("secret") })
    }

    @Test func twoStoresOnOneFileKeepEachOthersCookies() async throws {
        let (directory, path) = try Self.temporaryJar()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let expiry = Date(timeIntervalSinceNow: 3600)
        func cookie(_ name: String, _ value: String) -> Cookie {
            Cookie(name: name, value: value, domain: "www.example.com", expires: expiry)
        }
        let first = try CookieFileStore(path: path)
        let second = try CookieFileStore(path: path)
        await first.store([cookie("a", "1"), cookie("shared", "old")], receivedFrom: url)
        try first.save()
        await second.store([cookie("b", "2")], receivedFrom: url)
        try second.save()  // second never saw a or shared: it keeps them
        #expect(Set(try CookieFileStore(path: path).allCookies.map(\.name)) == ["a", "b", "shared"])

        // first changes shared and removes a; second, which did not touch them, must not bring them back.
        await first.store([cookie("shared", "new")], receivedFrom: url)
        await first.store([Cookie(name: "a", value: "", domain: "www.example.com", expires: .distantPast)],
                          receivedFrom: url)
        try first.save()
        await second.store([cookie("c", "3")], receivedFrom: url)
        try second.save()
        let final = try CookieFileStore(path: path).allCookies
        #expect(Set(final.map(\.name)) == ["b", "c", "shared"])
        #expect(final.first { $0.name == "shared" }?.value == "new")
        #expect(await second.cookies(for: url).first { $0.name == "shared" }?.value == "new", "merged back in")
    }

    @Test func concurrentSavesUnderTheLockLoseNothing() async throws {
        let (directory, path) = try Self.temporaryJar()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = url
        let stores = try (0..<12).map { _ in try CookieFileStore(path: path) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    let cookie = Cookie(name: "c\(index)", value: "\(index)", domain: "www.example.com",
                                        expires: Date(timeIntervalSinceNow: 3600))
                    await store.store([cookie], receivedFrom: url)
                    try store.save()
                }
            }
            try await group.waitForAll()
        }
        #expect(Set(try CookieFileStore(path: path).allCookies.map(\.name)) == Set((0..<12).map { "c\($0)" }))
        #expect(DataPath.listing(directory) == ["cookies.txt"], "no temporary file is left behind")
    }

    @Test func conformsToTheCookieStoreRules() async throws {
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var count = 0
        try await CookieStoreConformance.run {
            count += 1
            return try CookieFileStore(path: directory + "/jar\(count).txt")
        }
    }

    @Test func aDomainKeepsItsCaseInTheFileAndMatchesWithoutIt() async throws {
        let (directory, path) = try Self.temporaryJar()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let line = ".Example.COM\tTRUE\t/\tFALSE\t0\tmixed\tm"
        try DataPath.write(Array((NetscapeCookieFile.header + "\n" + line + "\n").utf8), to: path)
        let store = try CookieFileStore(path: path, configuration: .init(keepsSessionCookies: true))
        #expect(await store.cookies(for: url).map(\.name) == ["mixed"])
        let set = try #require(SetCookieParser.parse("set=s; Domain=WWW.example.com", from: url, at: Date()))
        await store.store([set], receivedFrom: url)
        try store.save()
        let lines = Self.text(path).split(separator: "\n").map(String.init)
        #expect(lines.contains(line), "\(lines)")
        #expect(lines.contains(".WWW.example.com\tTRUE\t/app\tFALSE\t0\tset\ts"), "\(lines)")
    }

    @Test func aFileListsTheNewestFirstAndARoundTripKeepsTheSendingOrder() async throws {
        let (directory, path) = try Self.temporaryJar()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = ["www.example.com\tFALSE\t/\tFALSE\t0\tnewer\tn", "www.example.com\tFALSE\t/\tFALSE\t0\tolder\to"]
        try DataPath.write(Array(([NetscapeCookieFile.header] + lines).joined(separator: "\n").utf8), to: path)
        let store = try CookieFileStore(path: path, configuration: .init(keepsSessionCookies: true))
        #expect(await store.cookies(for: url).map(\.name) == ["older", "newer"], "the last line is the oldest")
        await store.store([Cookie(name: "newest", value: "w", domain: "www.example.com")], receivedFrom: url)
        try store.save()
        let written = Self.text(path).split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t")[5] }
        #expect(written == ["newest", "newer", "older"], "written newest first, as curl writes")
        let reopened = try CookieFileStore(path: path, configuration: .init(keepsSessionCookies: true))
        #expect(await reopened.cookies(for: url).map(\.name) == ["older", "newer", "newest"])
    }

    @Test func anUnreadableFileIsAStorageError() throws {
        let (directory, _) = try Self.temporaryJar()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: ClientError.self) { try CookieFileStore(path: directory) }
    }
}

/// Keeps the `line` metadata and text of every message.
final class LogRecorder: LogHandler, @unchecked Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var text: String
        var line: String
    }

    private let storage = Mutex<[Entry]>([])
    var entries: [Entry] { storage.withLock { $0 } }
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let text = "\(event.message) \(event.metadata ?? [:])"
        let line = event.metadata?["line"].map { "\($0)" } ?? ""
        storage.withLock { $0.append(Entry(level: event.level, text: text, line: line)) }
    }
}
