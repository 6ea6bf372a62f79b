import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

/// A `Host` field set by the caller scopes the request's cookies (curl's `-H "Host: …"`).
@Suite struct CookieHostFieldTests {
    static let echo = ScriptedTransport { request, _ in
        var response = Response.text(request.headerFields[.cookie] ?? "none")
        if request.url.path() == "/go" {
            return Response(status: .found, headerFields: [.location: "http://evil.example/"])
        }
        if request.url.path() == "/set" {
            response.headerFields.append(HTTPField(name: .setCookie, value: "v=1; Domain=host.example; Path=/"))
        }
        return response
    }

    static func request(_ path: String, host: String?) -> Request {
        var request = Request(url: URL(string: "http://127.0.0.1:8080" + path)!)
        if let host, let name = HTTPField.Name("Host") { request.headerFields[name] = host }
        return request
    }

    @Test func cookiesAreKeptAndSentForTheHostField() async throws {
        let jar = MemoryCookieJar()
        let client = Client(transport: Self.echo, cookies: jar)
        _ = try await client.send(Self.request("/set", host: "www.host.example:8080"))
        #expect(jar.allCookies.map(\.domain) == ["host.example"], "Domain=host.example is accepted for the Host")
        #expect(try await client.send(Self.request("/next", host: "shop.host.example")).text() == "v=1")
        #expect(try await client.send(Self.request("/next", host: nil)).text() == "none", "not for 127.0.0.1")
    }

    @Test func aRedirectToAnotherOriginDropsTheHostFieldAndItsCookies() async throws {
        let jar = MemoryCookieJar()
        let client = Client(transport: Self.echo, cookies: jar)
        _ = try await client.send(Self.request("/set", host: "www.host.example"))
        let redirected = try await client.send(Self.request("/go", host: "www.host.example"))
        #expect(redirected.info.url.host() == "evil.example")
        #expect(redirected.text() == "none", "host.example's cookie must not follow the redirect")
    }

    @Test func withoutAHostFieldTheURLDecides() async throws {
        let jar = MemoryCookieJar()
        _ = try await Client(transport: Self.echo, cookies: jar).send(Self.request("/set", host: nil))
        #expect(jar.allCookies.isEmpty, "Domain=host.example does not cover 127.0.0.1")
    }
}
