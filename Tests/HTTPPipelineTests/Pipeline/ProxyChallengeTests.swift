import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// The 407 path: a proxy's challenge is answered with separate proxy credentials, and the answer reaches the
/// transport only in `RequestContext.proxyAuthorization`, never as a header field.
@Suite struct ProxyChallengeTests {
    static let proxy = ProxyRoute.http(host: "proxy.example", port: 3128)
    static let good = Credential(user: "pat", password: "proxypass")
    static let goodValue = "Basic " + "pat:proxypass".base64
    static let proxyScope = CredentialScope(proxy: proxy, realm: "Squid")

    /// What each attempt carried to the transport.
    final class Attempts: Sendable {
        private let storage = Mutex<[ProxyAuthorization?]>([])
        func append(_ value: ProxyAuthorization?) { storage.withLock { $0.append(value) } }
        var values: [ProxyAuthorization?] { storage.withLock { $0 } }
    }

    /// A proxy that wants pat:proxypass in realm "Squid"; behind it, an origin that wants alice:wonderland when
    /// `originWantsAuth`. Every response says it came through `route`.
    static func proxied(
        route: ProxyRoute = proxy,
        originWantsAuth: Bool = false,
        attempts: Attempts
    ) -> ScriptedTransport {
        ScriptedTransport { request, context in
            attempts.append(context.proxyAuthorization)
            var response: Response
            var fields = HTTPFields()
            if context.proxyAuthorization?.applies(to: route) != true
                || context.proxyAuthorization?.value != goodValue
            {
                fields[.proxyAuthenticate] = "Basic realm=\"Squid\""
                response = .text("proxy says no", status: 407, headerFields: fields)
            } else if originWantsAuth, request.headerFields[.authorization] != ChallengeLoopTests.good {
                fields[.wwwAuthenticate] = "Basic realm=\"\(ChallengeLoopTests.realm)\""
                response = .text("origin says no", status: 401, headerFields: fields)
            } else {
                response = .text("welcome")
            }
            response.route = route
            response.isFromProxy = !route.isDirect
            return response
        }
    }

    @Test func retryCarriesTheContextAuthorizationAndNoHeaderField() async throws {
        let attempts = Attempts()
        let transport = Self.proxied(attempts: attempts)
        var request = Request("http://a.example/")
        request.options.proxyCredential = Self.good
        #expect(try await Client(transport: transport).send(request).text() == "welcome")
        #expect(attempts.values.count == 2)
        #expect(attempts.values[0] == nil)
        #expect(attempts.values[1]?.value == Self.goodValue)
        #expect(attempts.values[1]?.proxy.isSameProxy(as: Self.proxy) == true)
        #expect(transport.requests.allSatisfy { $0.headerFields[.proxyAuthorization] == nil })
        #expect(transport.requests.allSatisfy { $0.headerFields[.authorization] == nil })
    }

    @Test func routeCredentialIsTriedFirst() async throws {
        let attempts = Attempts()
        let route = ProxyRoute.http(host: "proxy.example", port: 3128, credential: Self.good)
        let asked = HopRecorder()
        let configuration = Client.Configuration(authenticationHandler: { _ in
            asked.append("asked")
            return nil
        })
        var request = Request("http://a.example/")
        request.options.proxyCredential = Credential(user: "pat", password: "wrong")
        let client = Client(transport: Self.proxied(route: route, attempts: attempts), configuration: configuration)
        #expect(try await client.send(request).text() == "welcome")
        #expect(attempts.values.map { $0?.value } == [nil, Self.goodValue])
        #expect(asked.values.isEmpty)
    }

    @Test func rejectedRouteCredentialFallsBackToTheRequestOption() async throws {
        let attempts = Attempts()
        let route = ProxyRoute.http(host: "proxy.example", port: 3128,
                                    credential: Credential(user: "pat", password: "x"))
        var request = Request("http://a.example/")
        request.options.proxyCredential = Self.good
        let client = Client(transport: Self.proxied(route: route, attempts: attempts))
        #expect(try await client.send(request).text() == "welcome")
        #expect(attempts.values.map { $0?.value } == [nil, "Basic " + "pat:x".base64, Self.goodValue])
    }

    @Test func handlerIsAskedWithAProxyChallenge() async throws {
        let seen = Mutex<[AuthenticationChallenge]>([])
        let configuration = Client.Configuration(authenticationHandler: { challenge in
            seen.withLock { $0.append(challenge) }
            return challenge.isForProxy ? Self.good : nil
        })
        let client = Client(transport: Self.proxied(attempts: Attempts()), configuration: configuration)
        #expect(try await client.send(Request("http://a.example/page")).text() == "welcome")
        let challenges = seen.withLock { $0 }
        #expect(challenges.count == 1)
        #expect(challenges.first?.isForProxy == true)
        #expect(challenges.first?.scope == Self.proxyScope)
        #expect(challenges.first?.proxy?.isSameProxy(as: Self.proxy) == true)
        #expect(challenges.first?.realm == "Squid")
        #expect(challenges.first?.url.absoluteString == "http://a.example/page")
    }

    @Test func proxyThenOriginChallengeTheSameRequest() async throws {
        let attempts = Attempts()
        let transport = Self.proxied(originWantsAuth: true, attempts: attempts)
        var request = Request("http://a.example/")
        request.options.proxyCredential = Self.good
        request.options.credential = Credential(user: "alice", password: "wonderland")
        #expect(try await Client(transport: transport).send(request).text() == "welcome")
        #expect(attempts.values.map { $0?.value } == [nil, Self.goodValue, Self.goodValue])
        #expect(transport.requests.map { $0.headerFields[.authorization] } == [nil, nil, ChallengeLoopTests.good])
        #expect(transport.requests.allSatisfy { $0.headerFields[.proxyAuthorization] == nil })
    }

    @Test func proxyCredentialIsSavedUnderTheProxyScopeAndReused() async throws {
        let store = RecordingCredentialStore()
        let asked = HopRecorder()
        let configuration = Client.Configuration(authenticationHandler: { challenge in
            asked.append(challenge.isForProxy ? "proxy" : "server")
            return Self.good
        })
        let attempts = Attempts()
        let client = Client(transport: Self.proxied(attempts: attempts), credentials: store,
                            configuration: configuration)
        #expect(try await client.send(Request("http://a.example/")).text() == "welcome")
        #expect(store.calls.filter { if case .save = $0 { true } else { false } } == [.save(Self.proxyScope)])
        #expect(try await store.credential(for: CredentialScope(scheme: "http", host: "a.example", port: 80)) == nil)

        #expect(try await client.send(Request("http://b.example/")).text() == "welcome")
        #expect(asked.values == ["proxy"])  // the second 407 was answered from the session store
        #expect(attempts.values.map { $0?.value } == [nil, Self.goodValue, nil, Self.goodValue])
    }

    @Test func failureNamesTheProxyNeverTheCredential() async throws {
        var request = Request("http://a.example/")
        request.options.proxyCredential = Credential(user: "pat", password: "topsecret")
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: Self.proxied(attempts: Attempts())).send(request)
        }
        #expect(error?.code == .authenticationFailed)
        #expect(error?.stage == .credentials)
        #expect(error?.message.contains("proxy.example:3128") == true)
        #expect(error.map { !"\($0)".contains("topsecret") && !"\($0)".contains("pat") } == true)
    }

    /// A 407 the proxy did not send (a direct origin's, or an origin's inside a CONNECT tunnel) is an ordinary
    /// response: it never asks for proxy credentials, never makes the pipeline forget one, and its cookies count.
    @Test(arguments: [ProxyRoute.direct, proxy])
    func a407NotFromTheProxyIsAnOrdinaryResponse(route: ProxyRoute) async throws {
        let store = RecordingCredentialStore()
        try await store.save(Self.good, for: CredentialScope(proxy: Self.proxy, realm: "Squid"))
        let asked = Mutex<Int>(0)
        let transport = ScriptedTransport { _, _ in
            var fields = HTTPFields()
            fields[.proxyAuthenticate] = "Basic realm=\"Squid\""
            fields[.setCookie] = "origin=1"
            var response = Response.text("origin says 407", status: 407, headerFields: fields)
            response.route = route  // isFromProxy stays false: the origin answered
            return response
        }
        var configuration = Client.Configuration()
        configuration.authenticationHandler = { _ in
            asked.withLock { $0 += 1 }
            return Self.good
        }
        let jar = MemoryCookieJar()
        var request = Request("https://a.example/")
        request.options.proxyCredential = Self.good
        let response = try await Client(transport: transport, cookies: jar, credentials: store,
                                        configuration: configuration).send(request)
        #expect(response.status.code == 407)
        #expect(transport.requests.count == 1)
        #expect(asked.withLock { $0 } == 0)
        #expect(try await store.credential(for: CredentialScope(proxy: Self.proxy, realm: "Squid")) == Self.good)
        #expect(jar.allCookies.map(\.name) == ["origin"])
    }

    @Test func aProxysOwnCookiesAreNeverStoredForTheOrigin() async throws {
        let transport = ScriptedTransport { _, context in
            if context.proxyAuthorization == nil {
                var fields = HTTPFields()
                fields[.proxyAuthenticate] = "Basic realm=\"Squid\""
                fields[.setCookie] = "proxy=1"
                return Response(status: .init(code: 407), headerFields: fields, route: Self.proxy, isFromProxy: true)
            }
            return Response(status: .ok, route: Self.proxy, isFromProxy: true)
        }
        let jar = MemoryCookieJar()
        var request = Request("http://a.example/")
        request.options.proxyCredential = Self.good
        let response = try await Client(transport: transport, cookies: jar).send(request)
        #expect(response.status == .ok)
        #expect(jar.allCookies.isEmpty)
    }

    @Test func sessionProxyCredentialNeverAnswersTheOrigin() async throws {
        let store = SessionCredentialStore()
        await store.save(Credential(user: "alice", password: "wonderland"),
                         for: CredentialScope(proxy: .http(host: "a.example", port: 80)))
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: ChallengeLoopTests.server(), credentials: store)
                .send(Request("http://a.example/"))
        }
        #expect(error?.code == .authenticationFailed)
    }
}
