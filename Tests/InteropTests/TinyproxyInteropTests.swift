import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Logging
import SocketTransport
import TestSupport
import Testing

/// `POSIXTransport` through a real HTTP proxy, tinyproxy, to a `LoopbackServer` origin: the absolute-form request
/// the proxy forwards, a 407 from an authenticating proxy returned as a response with its route, the pipeline's
/// `Proxy-Authorization` accepted, and failover from a dead proxy to tinyproxy.
///
/// Skipped when tinyproxy is not installed, unless `ASI_REQUIRE_PEERS=1` (CI), which turns that into a failure.
@Suite("tinyproxy interop", .enabled(if: TinyproxyPeer.shouldRun))
struct TinyproxyInteropTests {
    /// `Basic` for `user:pass`.
    private static let basicUserPass = "Basic dXNlcjpwYXNz"

    private static func transport(_ routes: ProxyRoute...) -> POSIXTransport {
        POSIXTransport(configuration: .init(proxyResolver: ScriptedProxyResolver { _ in routes }))
    }

    private static func send(
        _ transport: POSIXTransport,
        _ url: URL,
        tls: TLSOptions = TLSOptions(),
        proxyAuthorization: ProxyAuthorization? = nil
    ) async throws -> (Response, [UInt8]) {
        var request = Request(url: url)
        request.options.timeout = generousTimeout
        request.options.tls = tls
        let context = RequestContext(proxyAuthorization: proxyAuthorization,
                                     logger: Logger(label: "TinyproxyInteropTests"))
        let response = try await transport.send(request, context: context)
        return (response, try await response.body.collect(upTo: 1024 * 1024))
    }

    @Test func getGoesThroughTheProxyToTheOrigin() async throws {
        let origin = try LoopbackServer { _ in .ok("from the origin") }
        defer { origin.shutdown() }
        try await withTinyproxy { proxy in
            let transport = Self.transport(proxy.route())
            let (response, body) = try await Self.send(transport, origin.url("/hello?x=1"))
            #expect(response.status == .ok)
            #expect(body == Array("from the origin".utf8))
            #expect(response.route == proxy.route())
            #expect(response.headerFields[.via]?.contains("tinyproxy") == true)
            // tinyproxy got the absolute form and sent the origin form on.
            #expect(proxy.log.contains("GET http://127.0.0.1:\(origin.port)/hello?x=1"), "\(proxy.log)")
            #expect(origin.requests.first?.target == "/hello?x=1")
            try await transport.shutdown()
        }
    }

    @Test func anAuthenticatingProxyAnswers407WithItsRouteAnd200WithAuthorization() async throws {
        let origin = try LoopbackServer { _ in .ok("secret") }
        defer { origin.shutdown() }
        try await withTinyproxy(basicAuth: Credential(user: "user", password: "pass")) { proxy in
            let route = proxy.route(credential: Credential(user: "user", password: "pass"))
            let transport = Self.transport(route)
            let (denied, _) = try await Self.send(transport, origin.url("/a"))
            #expect(denied.status == .proxyAuthenticationRequired)
            #expect(denied.route == route)
            #expect(denied.headerFields[.proxyAuthenticate]?.hasPrefix("Basic") == true)
            #expect(origin.requests.isEmpty)

            let authorization = ProxyAuthorization(proxy: denied.route, value: Self.basicUserPass)
            let (allowed, body) = try await Self.send(transport, origin.url("/a"), proxyAuthorization: authorization)
            #expect(allowed.status == .ok)
            #expect(body == Array("secret".utf8))
            #expect(allowed.route == route)
            // The proxy consumed the authorization: it never reaches the origin.
            #expect(origin.requests.count == 1)
            #expect(origin.requests.first?.header("Proxy-Authorization") == nil)
            try await transport.shutdown()
        }
    }

    @Test func anAuthorizationForAnotherProxyIsNotSent() async throws {
        let origin = try LoopbackServer { _ in .ok("secret") }
        defer { origin.shutdown() }
        try await withTinyproxy(basicAuth: Credential(user: "user", password: "pass")) { proxy in
            let transport = Self.transport(proxy.route())
            let elsewhere = ProxyRoute.http(host: "127.0.0.2", port: proxy.port)
            let authorization = ProxyAuthorization(proxy: elsewhere, value: Self.basicUserPass)
            let (response, _) = try await Self.send(transport, origin.url("/b"), proxyAuthorization: authorization)
            #expect(response.status == .proxyAuthenticationRequired)
            #expect(origin.requests.isEmpty)
            try await transport.shutdown()
        }
    }

    @Test func aDeadProxyFailsOverToTinyproxy() async throws {
        let origin = try LoopbackServer { _ in .ok("via the second proxy") }
        defer { origin.shutdown() }
        let dead = RefusingPort()
        defer { withExtendedLifetime(dead) {} }
        let deadRoute = ProxyRoute.http(host: "127.0.0.1", port: dead.port)
        try await withTinyproxy { proxy in
            let transport = Self.transport(deadRoute, proxy.route())
            let (response, body) = try await Self.send(transport, origin.url("/c"))
            #expect(response.status == .ok)
            #expect(body == Array("via the second proxy".utf8))
            #expect(response.route == proxy.route())
            #expect(proxy.log.contains("GET http://127.0.0.1:\(origin.port)/c"))
            try await transport.shutdown()
        }
    }

    @Test func aClientSendsThroughTinyproxy() async throws {
        let origin = try LoopbackServer { _ in .ok("client") }
        defer { origin.shutdown() }
        try await withTinyproxy { proxy in
            let client = Client(transport: Self.transport(proxy.route(), .direct))
            var request = Request(url: origin.url("/d"))
            request.options.timeout = generousTimeout
            let response = try await client.send(request)
            #expect(response.status == .ok)
            #expect(response.body == Array("client".utf8))
            #expect(proxy.log.contains("GET http://127.0.0.1:\(origin.port)/d"))
            try await client.shutdown()
        }
    }

    // MARK: CONNECT tunnels to nginx over TLS

    @Test(.enabled(if: NginxPeer.shouldRun))
    func httpsGoesThroughACONNECTTunnelWithTLSToTheOrigin() async throws {
        try await withNginx { nginx in
            try await withTinyproxy { proxy in
                let transport = Self.transport(proxy.route())
                let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
                let url = nginx.url("/hello.txt", on: .tls)
                let (first, body) = try await Self.send(transport, url, tls: tls)
                #expect(first.status == .ok)
                #expect(body == Array("hello\n".utf8))
                #expect(first.route == proxy.route())
                #expect(!first.isFromProxy)  // the origin answered, inside the tunnel
                #expect(proxy.log.contains("CONNECT localhost:\(nginx.port(.tls))"), "\(proxy.log)")
                // The tunnel is kept alive and reused like any connection.
                let (second, _) = try await Self.send(transport, url, tls: tls)
                #expect(second.connectionID == first.connectionID)
                try await transport.shutdown()
            }
        }
    }

    @Test(.enabled(if: NginxPeer.shouldRun))
    func theOriginsCertificateIsCheckedInsideTheTunnel() async throws {
        try await withNginx { nginx in
            try await withTinyproxy { proxy in
                let transport = Self.transport(proxy.route())
                let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
                await #expect {
                    _ = try await Self.send(transport, nginx.url("/hello.txt", on: .wrongName), tls: tls)
                } throws: { error in
                    (error as? ClientError)?.code == .certificateInvalid
                }
                try await transport.shutdown()
            }
        }
    }

    @Test(.enabled(if: NginxPeer.shouldRun))
    func anAuthenticatingProxyAnswersCONNECTWith407ThenOpensTheTunnel() async throws {
        try await withNginx { nginx in
            try await withTinyproxy(basicAuth: Credential(user: "user", password: "pass")) { proxy in
                let transport = Self.transport(proxy.route())
                let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
                let url = nginx.url("/hello.txt", on: .tls)
                let (denied, _) = try await Self.send(transport, url, tls: tls)
                #expect(denied.status == .proxyAuthenticationRequired)
                #expect(denied.route == proxy.route())
                let authorization = ProxyAuthorization(proxy: denied.route, value: Self.basicUserPass)
                let (allowed, body) = try await Self.send(transport, url, tls: tls, proxyAuthorization: authorization)
                #expect(allowed.status == .ok)
                #expect(body == Array("hello\n".utf8))
                try await transport.shutdown()
            }
        }
    }
}
