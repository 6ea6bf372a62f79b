import FoundationEssentials
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

/// `CONNECT` tunnels through an HTTP proxy for `https` URLs, up to the TLS handshake: the `CONNECT` request, its
/// `Proxy-Authorization`, a 407 returned as a response, 502 failing over, other refusals ending the request, and
/// TLS starting after a 2xx. A `LoopbackServer` plays the proxy (it speaks no TLS; the interop suite with
/// tinyproxy and nginx covers the tunnel end to end).
@Suite struct POSIXTransportTunnelTests {
    private func proxied(_ routes: ProxyRoute...) -> POSIXTransport {
        POSIXTransport(configuration: .init(proxyResolver: ScriptedProxyResolver { _ in routes }))
    }

    private static let origin = URL(string: "https://origin.example:8443/secret?q=1")!

    @Test(arguments: [true, false])
    func connectNamesTheOriginAndCarriesItsProxysAuthorization(forThisProxy: Bool) async throws {
        let proxy = try LoopbackServer { _ in
            .status(407, headers: [("Proxy-Authenticate", "Basic realm=\"p\"")], body: Array("who?".utf8))
        }
        defer { proxy.shutdown() }
        let route = ProxyRoute.http(host: "127.0.0.1", port: proxy.port)
        let transport = proxied(route)
        var request = testRequest(Self.origin)
        request.headerFields[.proxyAuthorization] = "Basic Y2FsbGVyOmZpZWxk"
        var context = testContext()
        let owner = forThisProxy ? route : .http(host: "127.0.0.2", port: proxy.port)
        context.proxyAuthorization = ProxyAuthorization(proxy: owner, value: "Basic dTpw")
        let (response, body) = try await fetch(transport, request, context: context)
        #expect(response.status == .proxyAuthenticationRequired)
        #expect(response.route == route)
        #expect(response.isFromProxy)
        #expect(body == Array("who?".utf8))
        let connect = try #require(proxy.requests.first)
        #expect(connect.method == "CONNECT")
        #expect(connect.target == "origin.example:8443")
        #expect(connect.header("Host") == "origin.example:8443")
        // Only the pipeline's answer for this proxy goes with CONNECT; the caller's field never does.
        #expect(connect.headers(named: "Proxy-Authorization") == (forThisProxy ? ["Basic dTpw"] : []))
        #expect(proxy.requests.count == 1)
    }

    @Test func a502ToConnectFailsOverToTheNextRoute() async throws {
        let first = try LoopbackServer { _ in .status(502) }
        defer { first.shutdown() }
        let second = try LoopbackServer { _ in .status(407, headers: [("Proxy-Authenticate", "Basic realm=\"p\"")]) }
        defer { second.shutdown() }
        let secondRoute = ProxyRoute.http(host: "127.0.0.1", port: second.port)
        let transport = proxied(.http(host: "127.0.0.1", port: first.port), secondRoute)
        let (response, _) = try await fetch(transport, testRequest(Self.origin))
        #expect(response.status == .proxyAuthenticationRequired)
        #expect(response.route == secondRoute)
        #expect(first.requests.map(\.method) == ["CONNECT"])
        #expect(second.requests.map(\.method) == ["CONNECT"])
    }

    @Test func a502FromTheLastRouteIsAConnectFailure() async throws {
        let proxy = try LoopbackServer { _ in .status(502) }
        defer { proxy.shutdown() }
        let error = await expectClientError(.connectFailed) {
            _ = try await fetch(proxied(.http(host: "127.0.0.1", port: proxy.port)), testRequest(Self.origin))
        }
        #expect(error?.message.contains("502") == true)
    }

    @Test(arguments: [403, 500, 301])
    func anotherRefusalEndsTheRequestWithoutFailover(status: Int) async throws {
        let first = try LoopbackServer { _ in .status(status, headers: [("Location", "https://elsewhere.example/")]) }
        defer { first.shutdown() }
        let second = try LoopbackServer { _ in .ok("never") }
        defer { second.shutdown() }
        let transport = proxied(.http(host: "127.0.0.1", port: first.port), .http(host: "127.0.0.1", port: second.port))
        let error = await expectClientError(.connectFailed) { _ = try await fetch(transport, testRequest(Self.origin)) }
        #expect(error?.message.contains("\(status)") == true, "\(error?.message ?? "")")
        #expect(second.connectionCount == 0)
    }

    @Test func after2xxTheClientStartsTLSWithTheOriginInsideTheTunnel() async throws {
        // The loopback proxy answers 200 and closes, as if the origin hung up: the TLS handshake fails, which
        // proves TLS started on the tunnel after the answer.
        let proxy = try LoopbackServer { _ in .raw("HTTP/1.1 200 Connection established\r\n\r\n", thenClose: true) }
        defer { proxy.shutdown() }
        let transport = proxied(.http(host: "127.0.0.1", port: proxy.port))
        await expectClientError(.tlsHandshakeFailed) { _ = try await fetch(transport, testRequest(Self.origin)) }
        #expect(proxy.requests.map(\.method) == ["CONNECT"])
    }

    @Test func dataBeforeTheHandshakeIsAProtocolViolation() async throws {
        let proxy = try LoopbackServer { _ in
            .raw("HTTP/1.1 200 Connection established\r\n\r\nunexpected", thenClose: false)
        }
        defer { proxy.shutdown() }
        let transport = proxied(.http(host: "127.0.0.1", port: proxy.port))
        await expectClientError(.protocolViolation) { _ = try await fetch(transport, testRequest(Self.origin)) }
    }

    @Test func theTunnelledRequestCarriesNoProxyAuthorization() throws {
        var request = testRequest(Self.origin)
        request.headerFields[.proxyAuthorization] = "Basic Y2FsbGVyOmZpZWxk"
        let route = ProxyRoute.http(host: "proxy", port: 3128)
        let plan = try ExchangePlan(
            request: request, target: try RequestTarget(url: Self.origin), route: route,
            proxyAuthorization: ProxyAuthorization(proxy: route, value: "Basic dTpw"), idleTimeout: nil)
        let head = String(decoding: try plan.head, as: UTF8.self)
        #expect(head.hasPrefix("GET /secret?q=1 HTTP/1.1\r\n"))
        #expect(!head.lowercased().contains("proxy-authorization"))
        #expect(plan.tunnelAuthorization?.value == "Basic dTpw")
        #expect(plan.key.isTunnel)
        #expect(plan.key.connectHost == "proxy")
    }
}
