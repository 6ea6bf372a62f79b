import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@Suite struct CookiePipelineTests {
    static let echo = ScriptedTransport { request, _ in
        var response = Response.text(request.headerFields[.cookie] ?? "none")
        if request.url.path() == "/set" {
            response.headerFields.append(HTTPField(name: .setCookie, value: "a=1; Path=/"))
            response.headerFields.append(HTTPField(name: .setCookie, value: "b=2; Path=/; Max-Age=0"))
            response.headerFields.append(HTTPField(name: .setCookie, value: "evil=1; Domain=other.example"))
        }
        return response
    }

    @Test func storesAndSendsCookies() async throws {
        let client = Client(transport: Self.echo)
        let set = try await client.send(Request("http://a.example/set"))
        #expect(set.info.responseCookies.map(\.name) == ["a", "b"])  // evil is rejected: wrong domain
        #expect(try await client.send(Request("http://a.example/next")).text() == "a=1")
    }

    @Test func cookieStoreCanBeBypassed() async throws {
        let jar = MemoryCookieJar()
        var request = Request("http://a.example/set")
        request.options.usesCookieStore = false
        _ = try await Client(transport: Self.echo, cookies: jar).send(request)
        #expect(jar.allCookies.isEmpty)
    }

    @Test func requestCookiesAreSentWithStoredOnes() async throws {
        let jar = MemoryCookieJar()
        await jar.store([Cookie(name: "stored", value: "s", domain: "a.example")], receivedFrom: url("http://a.example/"))
        var request = Request("http://a.example/")
        request.options.requestCookies = [Cookie(name: "manual", value: "m", domain: "a.example")]
        #expect(try await Client(transport: Self.echo, cookies: jar).send(request).text() == "manual=m; stored=s")
    }

    @Test func aStoreKnownEmptyIsNotAskedAndOneThatMayHoldCookiesIs() async throws {
        let quiet = QuietCookieStore(isKnownEmpty: true)
        _ = try await Client(transport: Self.echo, cookies: quiet).send(Request("http://a.example/"))
        #expect(quiet.lookups.withLock { $0 } == 0)
        let asked = QuietCookieStore(isKnownEmpty: false)
        _ = try await Client(transport: Self.echo, cookies: asked).send(Request("http://a.example/"))
        #expect(asked.lookups.withLock { $0 } == 1)
    }

    @Test func theDefaultJarSkipsTheLookupOnlyWhileEmpty() async throws {
        let jar = MemoryCookieJar()
        #expect(jar.isKnownEmpty)
        let client = Client(transport: Self.echo, cookies: jar)
        _ = try await client.send(Request("http://a.example/set"))
        #expect(!jar.isKnownEmpty)
        #expect(try await client.send(Request("http://a.example/next")).text() == "a=1")
        jar.removeAll()
        #expect(jar.isKnownEmpty)
        #expect(try await client.send(Request("http://a.example/next")).text() == "none")
    }
}

/// Counts lookups and reports a fixed `isKnownEmpty`.
final class QuietCookieStore: CookieStore {
    let isKnownEmpty: Bool
    let lookups = Mutex(0)

    init(isKnownEmpty: Bool) {
        self.isKnownEmpty = isKnownEmpty
    }

    func cookies(for url: URL) -> [Cookie] {
        lookups.withLock { $0 += 1 }
        return []
    }

    func store(_ cookies: [Cookie], receivedFrom url: URL) {}
    func removeSessionCookies() {}
    func removeAll() {}
}
