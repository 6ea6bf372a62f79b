import FoundationEssentials
import HTTPCore
import HTTPPipeline
import Testing

/// `Set-Cookie` lines built to hurt: each is refused or clamped, never a crash, and the jar stays within its
/// limits.
@Suite struct SetCookieHostileTests {
    let origin = URL(string: "https://www.example.com/a/b")!
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func tenKilobyteValuesAreRefused() {
        let value = String(repeating: "v", count: 10 * 1024)
        #expect(SetCookieParser.parse("big=" + value, from: origin, at: now) == nil, "over maxLength")
        // Under the header limit but over 4096 bytes of name and value: the storage refuses it.
        var storage = CookieStorage()
        let cookie = SetCookieParser.parse("big=" + String(repeating: "v", count: 5000), from: origin, at: now)
        storage.store(cookie.map { [$0] } ?? [], receivedFrom: origin, at: now)
        #expect(storage.isEmpty)
    }

    @Test(arguments: [
        "id=1; Expires=garbage", "id=1; Expires=", "id=1; Expires=99:99:99 99 Foo 99999",
        "id=1; Expires=\u{7F}\u{1B}[31m", "id=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Expires=nonsense",
    ])
    func garbageDatesLeaveASessionCookieOrAnEarlierValidOne(_ header: String) throws {
        let cookie = try #require(SetCookieParser.parse(header, from: origin, at: now))
        if header.contains("1970") {
            #expect(cookie.isExpired(at: now), "the valid Expires is kept; the garbage one is ignored")
        } else {
            #expect(cookie.expires == nil)
        }
    }

    @Test(arguments: ["id=a\u{00}b", "id=a\rb", "id=a\nb", "i\u{08}d=1", "id=\u{7F}", "id=1; Path=/\u{01}"])
    func controlBytesAreRefused(_ header: String) {
        #expect(SetCookieParser.parse(header, from: origin, at: now) == nil)
    }

    @Test func fiveThousandSegmentPathsAreRefusedOrIgnored() throws {
        let longPath = String(repeating: "/a", count: 5000)
        // In the attribute: longer than the whole header may be.
        #expect(SetCookieParser.parse("id=1; Path=" + longPath, from: origin, at: now) == nil)
        // Under the header limit but over 1024 bytes: the attribute is ignored, the default path applies.
        let cookie = try #require(SetCookieParser.parse(
            "id=1; Path=" + String(repeating: "/a", count: 1000), from: origin, at: now))
        #expect(cookie.path == "/a")
        // In the request URL: the default path is long but well-formed, and lookups still answer.
        let deep = try #require(URL(string: "https://www.example.com" + longPath + "/x"))
        let deepCookie = try #require(SetCookieParser.parse("id=1", from: deep, at: now))
        var storage = CookieStorage()
        storage.store([deepCookie], receivedFrom: deep, at: now)
        #expect(storage.cookies(for: deep, at: now).count == 1)
    }

    @Test(arguments: ["99999999999999999999999999", "9223372036854775807", "-99999999999999999999", "1e9", "60s"])
    func absurdMaxAgeIsClampedOrIgnored(_ maxAge: String) throws {
        let cookie = try #require(SetCookieParser.parse("id=1; Max-Age=" + maxAge, from: origin, at: now))
        if maxAge.hasPrefix("-") {
            #expect(cookie.isExpired(at: now))
        } else if maxAge.allSatisfy(\.isNumber) {
            let expires = try #require(cookie.expires)
            #expect(expires <= now + SetCookieParser.maxLifetime + 30, "capped at 400 days")
            #expect(expires >= now + SetCookieParser.maxLifetime - 30)
        } else {
            #expect(cookie.expires == nil, "not a number: the attribute is ignored")
        }
    }

    @Test func farExpiresIsCappedAtFourHundredDays() throws {
        let cookie = try #require(SetCookieParser.parse(
            "id=1; Expires=Fri, 31 Dec 9999 23:59:59 GMT", from: origin, at: now))
        let expires = try #require(cookie.expires)
        #expect(abs(expires.timeIntervalSince(now + SetCookieParser.maxLifetime)) <= 30)
        #expect(expires.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0, "rounded to the minute")
    }

    @Test func oneResponseSetsAtMostFiftyCookies() {
        var fields = HTTPFields()
        for index in 1...80 { fields.append(HTTPField(name: .setCookie, value: "c\(index)=1")) }
        let cookies = SetCookieParser.cookies(in: fields, from: origin, at: now)
        #expect(cookies.map(\.name) == (1...50).map { "c\($0)" })
    }

    @Test func cookiesOfOneResponseKeepTheirOrder() async {
        // Same creation date for all: the sequence number breaks the tie, every time.
        let jar = MemoryCookieJar()
        var fields = HTTPFields()
        let names = (0..<40).map { "n\(($0 * 7919) % 40)" }
        for name in names { fields.append(HTTPField(name: .setCookie, value: name + "=1; Path=/")) }
        let url = URL(string: "https://www.example.com/")!
        await jar.store(SetCookieParser.cookies(in: fields, from: url, at: now), receivedFrom: url)
        #expect(await jar.cookies(for: url).map(\.name) == names)
    }
}
