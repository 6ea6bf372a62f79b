import CookieFile
import FoundationEssentials
import HTTPCore
import TestSupport
import Testing

/// Cookie files that older tools or hostile hands wrote: they are read without a crash and written back sanely.
@Suite struct CookieFileHostileTests {
    let url = URL(string: "http://www.example.com/")!

    /// Old curl releases wrote `9223372036854775807` when `Max-Age` overflowed; such a line is kept (clamped to the
    /// year 9999) and writing it back does not trap.
    @Test func anExpiryBeyondAnyDateIsClampedNotACrash() async throws {
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/cookies.txt"
        let text = "www.example.com\tFALSE\t/\tFALSE\t9223372036854775807\tforever\tyes\n"
        try Data(text.utf8).write(to: URL(filePath: path))
        let store = try CookieFileStore(path: path)
        #expect(await store.cookies(for: url).map(\.name) == ["forever"])
        await store.store([Cookie(name: "other", value: "1", domain: "www.example.com")], receivedFrom: url)
        try store.save()
        let written = String(decoding: DataPath.read(path) ?? [], as: UTF8.self)
        #expect(written.contains("\t253402300799\tforever\tyes"), "\(written)")
        let formatted = NetscapeCookieFile.format(store.allCookies)
        #expect(formatted.contains("forever"))
    }

    /// A file larger than any real jar (or a device such as /dev/zero) is refused, not read into memory.
    @Test func anEndlessFileIsRefused() throws {
        #expect(throws: ClientError.self) { try CookieFileStore(path: "/dev/zero") }
    }
}
