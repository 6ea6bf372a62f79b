import FoundationEssentials
import HTTPAuthentication
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Logging
import SocketTransport
import TestSupport
import Testing

/// `POSIXTransport` through real proxies to nginx: microsocks (SOCKS5 with and without a password, local and
/// remote name resolution, TLS to the origin inside), squid's TLS port as an HTTPS proxy (absolute form and
/// `CONNECT` with TLS inside TLS, the proxy's certificate and name checked, Basic on both), and squid's NTLM on a
/// `CONNECT` tunnel (the handshake held on one proxy connection).
///
/// microsocks binds its outgoing connections to 127.0.0.2 and nginx's `/remote-addr` answers the client's
/// address, which proves the bytes went through the proxy.
@Suite("proxy transport interop")
struct ProxyTransportInteropTests {
    private static func transport(
        _ routes: ProxyRoute..., overrides: [String: String] = [:], proxyTLS: TLSOptions = TLSOptions()
    ) -> POSIXTransport {
        POSIXTransport(configuration: .init(proxyResolver: ScriptedProxyResolver { _ in routes },
                                            addressOverrides: overrides, proxyTLS: proxyTLS))
    }

    private static func send(
        _ transport: POSIXTransport, _ url: URL, tls: TLSOptions = TLSOptions()
    ) async throws -> (Response, String) {
        var request = Request(url: url)
        request.options.timeout = generousTimeout
        request.options.tls = tls
        let response = try await transport.send(request, context: RequestContext(logger: Logger(label: "proxy")))
        return (response, String(decoding: try await response.body.collect(upTo: 1 << 20), as: UTF8.self))
    }

    // MARK: microsocks

    @Test(.enabled(if: MicrosocksPeer.shouldRun && NginxPeer.shouldRun), arguments: [true, false])
    func socks5ReachesNginxThroughMicrosocks(remoteNames: Bool) async throws {
        try await withNginx { nginx in
            try await withMicrosocks { socks in
                let route = socks.route(remoteNames: remoteNames)
                let transport = Self.transport(route)
                let (response, body) = try await Self.send(transport, nginx.url("/remote-addr", host: "localhost"))
                #expect(response.status == .ok)
                #expect(body == MicrosocksPeer.outgoingAddress)
                #expect(response.route == route)
                // Kept alive and pooled under the route.
                let (again, _) = try await Self.send(transport, nginx.url("/remote-addr", host: "localhost"))
                #expect(again.connectionID == response.connectionID)
                try await transport.shutdown()
            }
        }
    }

    @Test(.enabled(if: MicrosocksPeer.shouldRun && NginxPeer.shouldRun))
    func localResolutionUsesTheAddressOverrideAndRemoteResolutionDoesNot() async throws {
        try await withNginx { nginx in
            try await withMicrosocks { socks in
                let url = nginx.url("/remote-addr", host: "asikit-socks.invalid")
                let overrides = ["asikit-socks.invalid:\(nginx.port(.plain))": "127.0.0.1"]
                let local = Self.transport(socks.route(remoteNames: false), overrides: overrides)
                let (_, body) = try await Self.send(local, url)
                #expect(body == MicrosocksPeer.outgoingAddress)
                // socks5h hands the name to microsocks, which cannot resolve it: a typed SOCKS failure.
                let remote = Self.transport(socks.route(remoteNames: true), overrides: overrides)
                let error = await #expect(throws: ClientError.self) { _ = try await Self.send(remote, url) }
                #expect(error?.code == .connectFailed)
                #expect(error?.underlying is SOCKSError, "\(String(describing: error))")
                try await local.shutdown()
                try await remote.shutdown()
            }
        }
    }

    @Test(.enabled(if: MicrosocksPeer.shouldRun && NginxPeer.shouldRun))
    func socks5WithAPasswordAndTLSInside() async throws {
        let credential = Credential(user: "sockser", password: "socks pass")
        try await withNginx { nginx in
            try await withMicrosocks(credential: credential) { socks in
                let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
                let transport = Self.transport(socks.route(credential: credential, remoteNames: true))
                let (response, body) = try await Self.send(transport, nginx.url("/remote-addr", on: .tls), tls: tls)
                #expect(response.status == .ok)
                #expect(body == MicrosocksPeer.outgoingAddress)
                // The origin's certificate is checked for the origin's name inside the SOCKS connection.
                let error = await #expect(throws: ClientError.self) {
                    _ = try await Self.send(transport, nginx.url("/", on: .wrongName), tls: tls)
                }
                #expect(error?.code == .certificateInvalid)
                // A wrong password, and none at all, are authentication failures.
                for wrong in [Credential(user: "sockser", password: "nope"), nil] {
                    let rejected = Self.transport(socks.route(credential: wrong, remoteNames: true))
                    let refusal = await #expect(throws: ClientError.self) {
                        _ = try await Self.send(rejected, nginx.url("/remote-addr"))
                    }
                    #expect(refusal?.code == .authenticationFailed)
                    try await rejected.shutdown()
                }
                try await transport.shutdown()
            }
        }
    }

    // MARK: squid's TLS port: an HTTPS proxy

    private static func client(_ route: ProxyRoute, proxyTLS: TLSOptions, overrides: [String: String] = [:]) -> Client {
        let resolver = ScriptedProxyResolver { _ in [route] }
        let configuration = POSIXTransport.Configuration(proxyResolver: resolver, addressOverrides: overrides,
                                                         proxyTLS: proxyTLS)
        return Client(transport: .posix(configuration), authenticators: [.digest(), .ntlm()])
    }

    private static func authenticated(_ url: URL, tls: TLSOptions = TLSOptions(), scheme: String = "Basic") -> Request {
        var request = Request(url: url)
        request.options.timeout = generousTimeout
        request.options.tls = tls
        request.options.proxyAuthenticationScheme = AuthenticationScheme(scheme)
        request.options.proxyCredential = scheme == "NTLM"
            ? Credential(user: "DOMAIN\\\(SquidPeer.user)", password: SquidPeer.password)
            : Credential(user: SquidPeer.user, password: SquidPeer.password)
        return request
    }

    @Test(.enabled(if: SquidPeer.shouldRun && NginxPeer.shouldRun))
    func anHTTPSProxyCarriesAbsoluteFormAndTLSInsideTLS() async throws {
        try await withNginx { nginx in
            try await withSquid(tls: nginx.certificates) { squid in
                let route = try #require(squid.httpsRoute())
                let proxyTLS = TLSOptions(trustedCAFile: nginx.certificates.caPath)
                let client = Self.client(route, proxyTLS: proxyTLS)
                let plain = try await client.send(Self.authenticated(nginx.url("/hello.txt")))
                #expect(plain.status == .ok, "\(squid.accessLog)")
                #expect(plain.text() == "hello\n")
                let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
                let tunnelled = try await client.send(Self.authenticated(nginx.url("/hello.txt", on: .tls), tls: tls))
                #expect(tunnelled.status == .ok, "\(squid.accessLog)")
                #expect(tunnelled.text() == "hello\n")
                #expect(squid.accessLog.contains("CONNECT localhost:\(nginx.port(.tls))"), "\(squid.accessLog)")
                #expect(squid.accessLog.contains("GET http://127.0.0.1:\(nginx.port(.plain))/hello.txt"))
                try await client.shutdown()
            }
        }
    }

    @Test(.enabled(if: SquidPeer.shouldRun && NginxPeer.shouldRun))
    func aTunnelThroughAnHTTPSProxyIsKeptAliveAndReused() async throws {
        try await withNginx { nginx in
            try await withSquid(tls: nginx.certificates) { squid in
                let route = try #require(squid.httpsRoute())
                let transport = Self.transport(route, proxyTLS: TLSOptions(trustedCAFile: nginx.certificates.caPath))
                let basic = "Basic " + Data("\(SquidPeer.user):\(SquidPeer.password)".utf8).base64EncodedString()
                let context = RequestContext(proxyAuthorization: ProxyAuthorization(proxy: route, value: basic),
                                             logger: Logger(label: "proxy"))
                var request = Request(url: nginx.url("/conn", on: .tls))
                request.options.timeout = generousTimeout
                request.options.tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
                var answers: [(UInt64?, String)] = []
                for _ in 0..<2 {
                    let response = try await transport.send(request, context: context)
                    #expect(response.status == .ok)
                    #expect(!response.isFromProxy)
                    let body = String(decoding: try await response.body.collect(upTo: 1024), as: UTF8.self)
                    answers.append((response.connectionID, body))
                }
                // One connection to squid, one TLS session to nginx inside it, two requests on that session.
                #expect(answers[0].0 == answers[1].0)
                #expect(answers[1].1.hasSuffix(" 2"), "\(answers)")
                try await transport.shutdown()
            }
        }
    }

    @Test(.enabled(if: SquidPeer.shouldRun && NginxPeer.shouldRun))
    func theHTTPSProxysCertificateAndNameAreChecked() async throws {
        try await withNginx { nginx in
            try await withSquid(tls: nginx.certificates) { squid in
                let port = try #require(squid.httpsPort)
                let url = nginx.url("/hello.txt")
                // Not trusted by the system store.
                let untrusted = Self.client(.https(host: "localhost", port: port), proxyTLS: TLSOptions())
                let error = await #expect(throws: ClientError.self) {
                    _ = try await untrusted.send(Self.authenticated(url))
                }
                #expect(error?.code == .certificateInvalid)
                // Trusted, but not for this name.
                let proxyTLS = TLSOptions(trustedCAFile: nginx.certificates.caPath)
                let misnamed = Self.client(.https(host: "proxy.invalid", port: port), proxyTLS: proxyTLS,
                                           overrides: ["proxy.invalid:\(port)": "127.0.0.1"])
                let nameError = await #expect(throws: ClientError.self) {
                    _ = try await misnamed.send(Self.authenticated(url))
                }
                #expect(nameError?.code == .certificateInvalid)
                // Insecure for the proxy only: the origin inside the tunnel is still checked.
                let insecure = Self.client(.https(host: "localhost", port: port),
                                           proxyTLS: TLSOptions(validatesCertificate: false))
                let response = try await insecure.send(Self.authenticated(url))
                #expect(response.status == .ok)
                let originError = await #expect(throws: ClientError.self) {
                    _ = try await insecure.send(Self.authenticated(nginx.url("/hello.txt", on: .tls)))
                }
                #expect(originError?.code == .certificateInvalid)
                for client in [untrusted, misnamed, insecure] { try await client.shutdown() }
            }
        }
    }

    // MARK: NTLM on CONNECT

    @Test(.enabled(if: SquidPeer.shouldRun && NginxPeer.shouldRun), arguments: [false, true])
    func squidNTLMAuthenticatesACONNECTTunnelOnOneConnection(overTLS: Bool) async throws {
        try await withNginx { nginx in
            try await withSquid(tls: overTLS ? nginx.certificates : nil) { squid in
                let route = try #require(overTLS ? squid.httpsRoute() : squid.route())
                let client = Self.client(route, proxyTLS: TLSOptions(trustedCAFile: nginx.certificates.caPath))
                let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
                let request = Self.authenticated(nginx.url("/hello.txt", on: .tls), tls: tls, scheme: "NTLM")
                let response = try await client.send(request)
                #expect(response.status == .ok, "\(squid.accessLog)")
                #expect(response.text() == "hello\n")
                try await client.shutdown()
                // squid logs a tunnel when it closes, with the NTLM user that authenticated its CONNECT; NTLM
                // succeeds only when its three messages travel on one connection.
                let logged = await eventually {
                    squid.accessLog.split(separator: "\n").contains {
                        $0.contains("TCP_TUNNEL/200") && $0.contains("CONNECT localhost:\(nginx.port(.tls))")
                            && !$0.contains(" - HIER_")  // a user name is logged (ntlm_fake_auth shortens it)
                    }
                }
                #expect(logged, "\(squid.accessLog)")
            }
        }
    }
}
