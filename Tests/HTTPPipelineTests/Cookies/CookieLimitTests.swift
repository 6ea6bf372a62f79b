import FoundationEssentials
import HTTPCore
import HTTPPipeline
import Testing

/// The `Set-Cookie` caps of `Docs/Limits.md` at their boundaries: the whole value (8192 bytes) and one attribute
/// value (1024 bytes).
@Suite struct CookieLimitTests {
    let origin = URL(string: "https://www.example.com/a/b")!
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// `id=1` and an unknown attribute that pads the value to exactly `size` bytes.
    static func header(size: Int) -> String {
        let start = "id=1; X="
        return start + String(repeating: "x", count: size - start.utf8.count)
    }

    @Test func aValueOfExactly8192BytesIsParsedOneMoreIsIgnored() throws {
        #expect(SetCookieParser.maxLength == 8192)
        #expect(SetCookieParser.parse(Self.header(size: 8192), from: origin, at: now)?.name == "id")
        #expect(SetCookieParser.parse(Self.header(size: 8193), from: origin, at: now) == nil)
    }

    @Test func anAttributeOf1024BytesIsHonouredOneMoreIsIgnored() throws {
        #expect(SetCookieParser.maxAttributeLength == 1024)
        let path = "/" + String(repeating: "p", count: 1023)
        let honoured = try #require(SetCookieParser.parse("id=1; Path=" + path, from: origin, at: now))
        #expect(honoured.path == path)
        let ignored = try #require(SetCookieParser.parse("id=1; Path=" + path + "p", from: origin, at: now))
        #expect(ignored.path == "/a")  // the default path of /a/b
    }
}
