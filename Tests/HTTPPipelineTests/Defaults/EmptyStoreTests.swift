import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// The default stores answer an empty lookup without work (PROFILE.md fix 4); once something is stored they
/// must find it again, and after clearing they must be empty again.
@Suite struct EmptyStoreTests {
    @Test func cookieJarFindsCookiesAfterBeingEmpty() async throws {
        let jar = MemoryCookieJar()
        let site = url("http://a.example/app/page")
        #expect(await jar.cookies(for: site).isEmpty)
        await jar.store([Cookie(name: "root", value: "1", domain: "a.example", path: "/"),
                         Cookie(name: "deep", value: "2", domain: "a.example", path: "/app")], receivedFrom: site)
        #expect(await jar.cookies(for: site).map(\.name) == ["deep", "root"])
        #expect(await jar.cookies(for: url("http://b.example/")).isEmpty)
        jar.removeAll()
        #expect(await jar.cookies(for: site).isEmpty)
    }

    @Test func credentialStoreFindsCredentialsAfterBeingEmpty() async throws {
        let store = SessionCredentialStore()
        let scope = CredentialScope(scheme: "http", host: "a.example", port: 80, realm: "R")
        let realmless = CredentialScope(scheme: "http", host: "a.example", port: 80)
        #expect(await store.credential(for: scope) == nil)
        #expect(await store.credential(for: realmless) == nil)
        let alice = Credential(user: "alice", password: "wonderland")
        await store.save(alice, for: scope)
        #expect(await store.credential(for: scope) == alice)
        #expect(await store.credential(for: realmless) == alice)
        store.removeAll()
        #expect(await store.credential(for: scope) == nil)
    }

    @Test func pipelineSendsStoredCookieAndCredentialOnceTheDefaultStoresFill() async throws {
        let good = "Basic " + "alice:wonderland".base64
        let transport = ScriptedTransport { request, _ in
            var fields = HTTPFields()
            if request.url.path() == "/login" { fields[.setCookie] = "session=s1; Path=/" }
            if request.headerFields[.authorization] == good { return .text("welcome", headerFields: fields) }
            fields[.wwwAuthenticate] = "Basic realm=\"R\""
            return .text("denied", status: 401, headerFields: fields)
        }
        let client = Client(transport: transport)
        var login = Request("http://a.example/login")
        login.options.credential = Credential(user: "alice", password: "wonderland")
        #expect(try await client.send(login).text() == "welcome")
        #expect(transport.requests[0].headerFields[.authorization] == nil)
        #expect(transport.requests[0].headerFields[.cookie] == nil)

        #expect(try await client.send(Request("http://a.example/next")).text() == "welcome")
        let next = try #require(transport.requests.last)
        #expect(next.headerFields[.authorization] == good)
        #expect(next.headerFields[.cookie] == "session=s1")

        // Another origin gets neither.
        _ = try? await client.send(Request("http://b.example/next"))
        let other = try #require(transport.requests.last)
        #expect(other.url.host() == "b.example")
        #expect(other.headerFields[.authorization] == nil)
        #expect(other.headerFields[.cookie] == nil)
    }

    @Test func customStoresAreAskedOnEveryRequestEvenWhenEmpty() async throws {
        let cookies = RecordingCookieStore()
        let credentials = RecordingCredentialStore()
        let client = Client(transport: ScriptedTransport { _, _ in .text("ok") }, cookies: cookies,
                            credentials: credentials)
        for _ in 0..<2 { _ = try await client.send(Request("http://a.example/x")) }
        let scope = CredentialScope(scheme: "http", host: "a.example", port: 80)
        #expect(cookies.calls.filter { $0 == .lookup(url("http://a.example/x")) }.count == 2)
        #expect(credentials.calls.filter { $0 == .lookup(scope) }.count == 2)
    }

    @Test func middlewareStillWrapsTheTransport() async throws {
        let seen = RecordingMiddleware()
        let client = Client(transport: ScriptedTransport { request, _ in
            .text(request.headerFields[HTTPField.Name("X-Seen")!] ?? "missing")
        }, middleware: [seen])
        #expect(try await client.send(Request("http://a.example/")).text() == "yes")
        #expect(seen.count.withLock { $0 } == 1)
    }
}

/// Adds `X-Seen: yes` and counts the requests it saw.
final class RecordingMiddleware: Middleware {
    let count = Mutex(0)

    func intercept(
        _ request: Request, context: RequestContext, next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        count.withLock { $0 += 1 }
        var request = request
        request.headerFields[HTTPField.Name("X-Seen")!] = "yes"
        return try await next(request, context)
    }
}

/// The pipeline trusts every store's `isKnownEmpty`, not a concrete type.
@Suite struct KnownEmptyCredentialStoreTests {
    @Test func aStoreThatKnowsItIsEmptyIsNotAskedUntilItFills() async throws {
        let store = RecordingCredentialStore(forwardsIsKnownEmpty: true)
        let transport = ChallengeLoopTests.server()
        let client = Client(transport: transport, credentials: store)
        _ = try? await client.send(Request("http://a.example/x"))
        #expect(!store.calls.contains { if case .lookup = $0 { true } else { false } })

        try await store.save(Credential(user: "alice", password: "wonderland"),
                             for: CredentialScope(scheme: "http", host: "a.example", port: 80))
        #expect(try await client.send(Request("http://a.example/x")).text() == "welcome")
        #expect(store.calls.contains(.lookup(CredentialScope(scheme: "http", host: "a.example", port: 80))))
        #expect(transport.requests.last?.headerFields[.authorization] == ChallengeLoopTests.good)
    }
}
