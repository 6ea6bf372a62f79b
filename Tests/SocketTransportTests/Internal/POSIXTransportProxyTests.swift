import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

/// Proxy routes through `POSIXTransport`: the absolute-form target, `Proxy-Authorization` only for its proxy,
/// failover along the resolver's list (for every kind of proxy), and pooling per route. A
/// `LoopbackServer` plays the HTTP proxy: it records what the transport sent and answers as the origin would.
@Suite struct POSIXTransportProxyTests {
    /// A transport whose resolver always answers `routes`.
    private func proxied(_ routes: ProxyRoute...) -> (POSIXTransport, ScriptedProxyResolver) {
        let resolver = ScriptedProxyResolver { _ in routes }
        return (POSIXTransport(configuration: .init(proxyResolver: resolver)), resolver)
    }

    /// Ports that refuse connections for the whole run (bound, never listening), so no parallel test can take them.
    private static let refusing = [RefusingPort(), RefusingPort()]

    /// A port nothing listens on.
    private func refusedPort(_ index: Int = 0) -> Int {
        Self.refusing[index].port
    }

    // MARK: Plain HTTP proxy

    @Test func httpProxyGetsTheAbsoluteFormTargetAndTheOriginsHost() async throws {
        let proxy = try LoopbackServer { _ in .ok("from the proxy") }
        defer { proxy.shutdown() }
        let route = ProxyRoute.http(host: "127.0.0.1", port: proxy.port)
        let (transport, resolver) = proxied(route)
        let url = URL(string: "http://origin.example:8080/path/a%20b?q=1&r=2#fragment")!
        let (response, body) = try await fetch(transport, testRequest(url))
        #expect(body == Array("from the proxy".utf8))
        #expect(response.route == route)
        #expect(response.isFromProxy)
        let recorded = try #require(proxy.requests.first)
        #expect(recorded.target == "http://origin.example:8080/path/a%20b?q=1&r=2")
        #expect(recorded.header("Host") == "origin.example:8080")
        #expect(recorded.header("Proxy-Authorization") == nil)
        // The resolver never sees the fragment (nor user:password, below).
        #expect(resolver.urls == [URL(string: "http://origin.example:8080/path/a%20b?q=1&r=2")!])
    }

    @Test func theResolverNeverSeesTheURLsCredentials() async throws {
        let proxy = try LoopbackServer { _ in .ok("") }
        defer { proxy.shutdown() }
        let (transport, resolver) = proxied(.http(host: "127.0.0.1", port: proxy.port))
        _ = try await fetch(transport, testRequest(URL(string: "http://alice:secret@origin.example/p?q")!))
        #expect(resolver.urls == [URL(string: "http://origin.example/p?q")!])
        #expect(resolver.urls.allSatisfy { !$0.absoluteString.contains("secret") })
    }

    @Test func aDirectResponseIsNotFromAProxy() async throws {
        let server = try LoopbackServer { _ in .ok("") }
        defer { server.shutdown() }
        let (transport, _) = proxied(.direct)
        let (response, _) = try await fetch(transport, testRequest(server.url("/")))
        #expect(response.route == .direct)
        #expect(!response.isFromProxy)
    }

    @Test func defaultPortIsLeftOutOfTheAbsoluteForm() async throws {
        let proxy = try LoopbackServer { _ in .ok("") }
        defer { proxy.shutdown() }
        let (transport, _) = proxied(.http(host: "127.0.0.1", port: proxy.port))
        _ = try await fetch(transport, testRequest(URL(string: "http://origin.example/")!))
        #expect(proxy.requests.first?.target == "http://origin.example/")
        #expect(proxy.requests.first?.header("Host") == "origin.example")
    }

    @Test func a407FromTheProxyIsAnOrdinaryResponseWithTheRoute() async throws {
        let proxy = try LoopbackServer { _ in
            .status(407, headers: [("Proxy-Authenticate", "Basic realm=\"proxy\"")], body: Array("denied".utf8))
        }
        defer { proxy.shutdown() }
        let credential = Credential(user: "u", password: "p")
        let route = ProxyRoute.http(host: "127.0.0.1", port: proxy.port, credential: credential)
        let (transport, _) = proxied(route)
        let (response, body) = try await fetch(transport, testRequest(URL(string: "http://origin.example/x")!))
        #expect(response.status == .proxyAuthenticationRequired)
        #expect(response.headerFields[.proxyAuthenticate] == "Basic realm=\"proxy\"")
        #expect(response.route == route)
        #expect(body == Array("denied".utf8))
    }

    @Test func keepAliveWorksThroughTheProxy() async throws {
        let proxy = try LoopbackServer { _ in .ok("hi") }
        defer { proxy.shutdown() }
        let (transport, _) = proxied(.http(host: "127.0.0.1", port: proxy.port))
        var ids: Set<UInt64?> = []
        for index in 0..<3 {
            let (response, _) = try await fetch(transport, testRequest(URL(string: "http://origin.example/\(index)")!))
            ids.insert(response.connectionID)
        }
        #expect(ids.count == 1)
        #expect(proxy.connectionCount == 1)
        #expect(proxy.requests.map(\.indexOnConnection) == [0, 1, 2])
    }

    // MARK: Proxy-Authorization

    @Test(arguments: [true, false])
    func proxyAuthorizationIsSentOnlyToItsProxy(forThisProxy: Bool) async throws {
        let proxy = try LoopbackServer { _ in .ok("") }
        defer { proxy.shutdown() }
        let route = ProxyRoute.http(host: "127.0.0.1", port: proxy.port)
        let (transport, _) = proxied(route)
        let other = ProxyRoute.http(host: "127.0.0.1", port: proxy.port == 65535 ? 1 : proxy.port + 1)
        var context = testContext()
        context.proxyAuthorization = ProxyAuthorization(proxy: forThisProxy ? route : other, value: "Basic dTpw")
        _ = try await fetch(transport, testRequest(URL(string: "http://origin.example/")!), context: context)
        #expect(proxy.requests.first?.header("Proxy-Authorization") == (forThisProxy ? "Basic dTpw" : nil))
    }

    @Test func theContextsAuthorizationReplacesTheCallersFieldForItsProxy() async throws {
        let proxy = try LoopbackServer { _ in .ok("") }
        defer { proxy.shutdown() }
        let route = ProxyRoute.http(host: "127.0.0.1", port: proxy.port)
        let (transport, _) = proxied(route)
        var request = testRequest(URL(string: "http://origin.example/")!)
        request.headerFields[.proxyAuthorization] = "Basic b2xkOm9sZA=="
        var context = testContext()
        context.proxyAuthorization = ProxyAuthorization(proxy: route, value: "Basic dTpw")
        _ = try await fetch(transport, request, context: context)
        #expect(proxy.requests.first?.headers(named: "Proxy-Authorization") == ["Basic dTpw"])
    }

    @Test func theCallersFieldIsKeptForAPlainHTTPProxy() async throws {
        let proxy = try LoopbackServer { _ in .ok("") }
        defer { proxy.shutdown() }
        let (transport, _) = proxied(.http(host: "127.0.0.1", port: proxy.port))
        var request = testRequest(URL(string: "http://origin.example/")!)
        request.headerFields[.proxyAuthorization] = "Basic dTpw"
        _ = try await fetch(transport, request)
        #expect(proxy.requests.first?.header("Proxy-Authorization") == "Basic dTpw")
    }

    /// On a direct route, neither the caller's field nor the context's authorization reaches the origin:
    /// without a resolver, with a resolver answering `DIRECT`, and after failing over to `DIRECT`.
    @Test(arguments: ["none", "direct", "failover"])
    func proxyAuthorizationNeverReachesAnOrigin(resolver kind: String) async throws {
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        let dead = ProxyRoute.http(host: "127.0.0.1", port: refusedPort())
        let transport: POSIXTransport = switch kind {
        case "none": POSIXTransport()
        case "direct": proxied(.direct).0
        default: proxied(dead, .direct).0
        }
        var request = testRequest(origin.url("/secret"))
        request.headerFields[.proxyAuthorization] = "Basic dTpw"
        var context = testContext()
        context.proxyAuthorization = ProxyAuthorization(proxy: dead, value: "Basic cHJveHk6cGFzcw==")
        let (response, body) = try await fetch(transport, request, context: context)
        #expect(body == Array("origin".utf8))
        #expect(response.route == .direct)
        let recorded = try #require(origin.requests.first)
        #expect(recorded.header("Proxy-Authorization") == nil)
        #expect(recorded.target == "/secret")
    }

    // MARK: Failover

    @Test func aRefusedProxyFailsOverToTheNextOne() async throws {
        let proxy = try LoopbackServer { _ in .ok("second") }
        defer { proxy.shutdown() }
        let live = ProxyRoute.http(host: "127.0.0.1", port: proxy.port)
        let (transport, resolver) = proxied(.http(host: "127.0.0.1", port: refusedPort()), live)
        let (response, body) = try await fetch(transport, testRequest(URL(string: "http://origin.example/")!))
        #expect(body == Array("second".utf8))
        #expect(response.route == live)
        #expect(proxy.requests.count == 1)
        #expect(resolver.urls.count == 1)
    }

    @Test func aRefusedProxyFailsOverToDirect() async throws {
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        let (transport, _) = proxied(.http(host: "127.0.0.1", port: refusedPort()), .direct)
        let (response, body) = try await fetch(transport, testRequest(origin.url("/d")))
        #expect(body == Array("origin".utf8))
        #expect(response.route == .direct)
        #expect(origin.requests.first?.target == "/d")
    }

    @Test func whenEveryRouteFailsTheLastErrorIsThrown() async throws {
        let first = refusedPort(0)
        let last = refusedPort(1)
        let (transport, _) = proxied(.http(host: "127.0.0.1", port: first), .http(host: "127.0.0.1", port: last))
        let error = await expectClientError(.connectFailed) {
            _ = try await fetch(transport, testRequest(URL(string: "http://origin.example/")!))
        }
        #expect(error?.message.contains(":\(last)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("proxy") == true, "\(error?.message ?? "")")
    }

    @Test func aResponseOfAnyStatusEndsTheRequestOnItsRoute() async throws {
        let first = try LoopbackServer { _ in .status(502, body: Array("bad gateway".utf8)) }
        defer { first.shutdown() }
        let second = try LoopbackServer { _ in .ok("second") }
        defer { second.shutdown() }
        let route = ProxyRoute.http(host: "127.0.0.1", port: first.port)
        let (transport, _) = proxied(route, .http(host: "127.0.0.1", port: second.port))
        let (response, _) = try await fetch(transport, testRequest(URL(string: "http://origin.example/")!))
        #expect(response.status == .badGateway)
        #expect(response.route == route)
        #expect(second.requests.isEmpty)
    }

    // MARK: Pooling

    @Test func connectionsArePooledPerRoute() async throws {
        let proxyA = try LoopbackServer { _ in .ok("a") }
        defer { proxyA.shutdown() }
        let proxyB = try LoopbackServer { _ in .ok("b") }
        defer { proxyB.shutdown() }
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        let routeA = ProxyRoute.http(host: "127.0.0.1", port: proxyA.port)
        let routeB = ProxyRoute.http(host: "127.0.0.1", port: proxyB.port)
        // The same proxy as A with a credential is another route: its connections are its own.
        let credential = Credential(user: "u", password: "p")
        let routeA2 = ProxyRoute.http(host: "127.0.0.1", port: proxyA.port, credential: credential)
        let next = Locked<[ProxyRoute]>([routeA, routeB, .direct, routeA, routeA2, routeB, .direct, routeA2])
        let resolver = ScriptedProxyResolver { _ in [next.withLock { $0.removeFirst() }] }
        let transport = POSIXTransport(configuration: .init(proxyResolver: resolver))
        var idsByRoute: [ProxyRoute: Set<UInt64>] = [:]
        for _ in 0..<8 {
            let (response, _) = try await fetch(transport, testRequest(origin.url("/p")))
            idsByRoute[response.route, default: []].insert(try #require(response.connectionID))
        }
        #expect(idsByRoute.count == 4)
        #expect(idsByRoute.values.allSatisfy { $0.count == 1 }, "\(idsByRoute)")
        #expect(Set(idsByRoute.values.map { $0.first! }).count == 4)
        #expect(proxyA.connectionCount == 2)
        #expect(proxyB.connectionCount == 1)
        #expect(origin.connectionCount == 1)
        let keyA = PoolKey(scheme: "http", host: "127.0.0.1", port: origin.port, proxy: routeA)
        #expect(transport.core.pool.openCount(keyA) == 1)
    }

    /// A tunnel opened with one user's `Proxy-Authorization` is never reused by a request with another answer or
    /// none; plain-proxy connections carry the authorization per request and stay shared.
    @Test func tunnelsArePooledByTheAuthorizationThatOpenedThem() throws {
        let route = ProxyRoute.http(host: "proxy", port: 3128)
        func key(_ url: String, _ value: String?) throws -> PoolKey {
            let authorization = value.map { ProxyAuthorization(proxy: route, value: $0) }
            let url = URL(string: url)!
            return try ExchangePlan(request: Request(url: url), target: RequestTarget(url: url), route: route,
                                    proxyAuthorization: authorization, idleTimeout: nil).key
        }
        let tunnelAlice = try key("https://origin.example/", "Basic YWxpY2U6YQ==")
        #expect(tunnelAlice == (try key("https://origin.example/", "Basic YWxpY2U6YQ==")))
        #expect(tunnelAlice != (try key("https://origin.example/", "Basic Ym9iOmI=")))
        #expect(tunnelAlice != (try key("https://origin.example/", nil)))
        #expect(!tunnelAlice.description.contains("YWxpY2U6YQ"))
        #expect(try key("http://origin.example/", "Basic YWxpY2U6YQ==") == (try key("http://origin.example/", nil)))
    }

    @Test func poolKeysOfDifferentRoutesDiffer() {
        let direct = PoolKey(scheme: "http", host: "h", port: 80)
        let viaA = PoolKey(scheme: "http", host: "h", port: 80, proxy: .http(host: "a", port: 3128))
        let credential = Credential(user: "u", password: "p")
        let viaAWithUser = PoolKey(scheme: "http", host: "h", port: 80,
                                   proxy: .http(host: "a", port: 3128, credential: credential))
        let viaB = PoolKey(scheme: "http", host: "h", port: 80, proxy: .http(host: "b", port: 3128))
        #expect(Set([direct, viaA, viaAWithUser, viaB]).count == 4)
        #expect(viaAWithUser.connectHost == "a" && viaAWithUser.connectPort == 3128)
        #expect(direct.connectHost == "h" && direct.connectPort == 80)
        #expect(!viaAWithUser.description.contains("p@"))
        #expect(viaAWithUser.description == "http://h:80 via http://<redacted>@a:3128")
    }

    // MARK: Every kind of route fails over when its proxy cannot be reached

    @Test(arguments: [
        ProxyRoute.https(host: "127.0.0.1", port: 0),
        ProxyRoute.socks4a(host: "127.0.0.1", port: 0, user: "socksuser"),
        ProxyRoute.socks5(host: "127.0.0.1", port: 0, credential: Credential(user: "u", password: "s3cret")),
    ])
    func unreachableProxiesOfEveryKindFailOver(kind route: ProxyRoute) async throws {
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        var dead = route
        dead.port = refusedPort()
        let (transport, _) = proxied(dead, .direct)
        let (response, body) = try await fetch(transport, testRequest(origin.url("/")))
        #expect(response.route == .direct)
        #expect(body == Array("origin".utf8))
        let (alone, _) = proxied(dead)
        let error = await expectClientError(.connectFailed) { _ = try await fetch(alone, testRequest(origin.url("/"))) }
        #expect(error?.message.contains("s3cret") == false)
        #expect(error?.message.contains("socksuser") == false)
    }

    @Test func anEmptyRouteListIsAConfigurationError() async throws {
        let transport = POSIXTransport(configuration: .init(proxyResolver: ScriptedProxyResolver { _ in [] }))
        await expectClientError(.invalidConfiguration) {
            _ = try await fetch(transport, testRequest(URL(string: "http://origin.example/")!))
        }
    }

    // MARK: Without a resolver, and through Client

    @Test func withoutAResolverRequestsGoDirect() async throws {
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        let transport = POSIXTransport()
        #expect(transport.configuration.proxyResolver == nil)
        let (response, _) = try await fetch(transport, testRequest(origin.url("/x?y")))
        #expect(response.route == .direct)
        #expect(origin.requests.first?.target == "/x?y")
    }

    @Test func clientRequestsGoThroughTheTransportsProxy() async throws {
        let proxy = try LoopbackServer { _ in .ok("proxied") }
        defer { proxy.shutdown() }
        let resolver = ScriptedProxyResolver.always(.http(host: "127.0.0.1", port: proxy.port), .direct)
        let client = Client(transport: .posix(.init(proxyResolver: resolver)))
        let response = try await client.send(testRequest(URL(string: "http://origin.example/c")!))
        #expect(response.status == .ok)
        #expect(response.body == Array("proxied".utf8))
        #expect(proxy.requests.first?.target == "http://origin.example/c")
        try await client.shutdown()
    }

    @Test func theTransportRunsAndShutsDownItsResolver() async throws {
        let resolver = LifecycleRecordingResolver()
        let transport = POSIXTransport(configuration: .init(proxyResolver: resolver))
        try await transport.run()
        try await transport.shutdown()
        try await transport.shutdown()
        #expect(resolver.calls == ["run", "shutdown", "shutdown"])
    }
}

/// A resolver that answers `DIRECT` and records its lifecycle calls.
private final class LifecycleRecordingResolver: ProxyResolver {
    private let recorded = Locked<[String]>([])

    var calls: [String] { recorded.withLock { $0 } }

    func routes(for url: URL) async throws -> [ProxyRoute] { [.direct] }

    func run() async throws { recorded.withLock { $0.append("run") } }

    func shutdown() async throws { recorded.withLock { $0.append("shutdown") } }
}
