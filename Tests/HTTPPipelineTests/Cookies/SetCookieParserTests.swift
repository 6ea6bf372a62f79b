import FoundationEssentials
import HTTPCore
import HTTPPipeline
import Testing

@Suite struct SetCookieParserTests {
    let origin = URL(string: "https://www.example.com/shop/cart")!
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func defaults() throws {
        let cookie = try #require(SetCookieParser.parse("id=a3fWa", from: origin, at: now))
        #expect(cookie.name == "id" && cookie.value == "a3fWa")
        #expect(cookie.domain == "www.example.com" && cookie.isHostOnly)
        #expect(cookie.path == "/shop")
        #expect(cookie.expires == nil)
    }

    @Test func attributes() throws {
        let cookie = try #require(SetCookieParser.parse(
            "id=1; Domain=.Example.com; Path=/; Secure; HttpOnly; Expires=Wed, 21 Oct 2024 07:28:00 GMT; SameSite=lax",
            from: origin, at: now))
        #expect(cookie.domain == "example.com" && !cookie.isHostOnly)
        #expect(cookie.spelledDomain == "Example.com", "the Domain attribute's case is kept for cookie files")
        #expect(cookie.path == "/" && cookie.isSecure && cookie.isHTTPOnly)
        #expect(cookie.expires == Date(timeIntervalSince1970: 1_729_495_680))
        #expect(cookie.sameSite == .lax)
    }

    @Test func maxAgeWinsOverExpires() throws {
        let cookie = try #require(SetCookieParser.parse(
            "id=1; Max-Age=60; Expires=Wed, 21 Oct 2037 07:28:00 GMT", from: origin, at: now))
        #expect(cookie.expires == now + 60)
        let expired = try #require(SetCookieParser.parse("id=1; Max-Age=-1", from: origin, at: now))
        #expect(expired.isExpired(at: now))
    }

    @Test(arguments: [
        "novalue",                          // no "="
        "=value",                           // empty name
        "id=1; Domain=other.com",           // domain does not cover the host
        "id=1; Domain=com",                 // single-label domain
        "id=1\u{01}x",                      // control character
        "id=1\tx",                          // tab inside the value (cookie files are tab-separated)
        "id=1; Path=/a\tb",                 // tab inside the path
        "novalue; Max-Age=60",              // no "=" before the first ";"
    ])
    func rejects(_ header: String) {
        #expect(SetCookieParser.parse(header, from: origin, at: now) == nil)
    }

    @Test func secureCookieOverPlainHTTPIsRejected() {
        #expect(SetCookieParser.parse("id=1; Secure", from: URL(string: "http://www.example.com/")!, at: now) == nil)
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777.0),
        ("Sun Nov  6 08:49:37 1994", 784_111_777.0),
        ("6 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0),
        ("Tue, 29 Feb 2000 12:00:00 GMT", 951_825_600.0),
    ])
    func cookieDates(_ text: String, seconds: Double) {
        #expect(CookieDateParser.date(from: text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["", "Feb 30 2001 10:00:00", "32 Jan 2001 10:00:00", "1 Jan 2001 24:00:00", "1 Jan 1500 10:00:00"])
    func invalidDates(_ text: String) {
        #expect(CookieDateParser.date(from: text) == nil)
    }

    @Test func descriptionHidesTheValue() {
        let cookie = Cookie(name: "session", value: "s3cr3t", domain: "example.com")
        #expect(!"\(cookie)".contains("s3cr3t"))
    }
}
