import FoundationEssentials
import HTTPCore
import HTTPTesting
import Logging
import ProxyPAC
import SocketTransport
import TestSupport
import Testing

/// PAC routing through `POSIXTransport` to a `LoopbackServer` origin, with a real proxy (tinyproxy) whose own log
/// proves which requests went through it. Skipped without tinyproxy unless `ASI_REQUIRE_PEERS=1`.
@Suite("PAC end to end", .enabled(if: TinyproxyPeer.shouldRun))
struct PACEndToEndTests {
    static let limits = PACProxyResolver.Configuration(evaluationTimeLimit: .seconds(2))

    static func send(_ transport: POSIXTransport, _ url: URL) async throws -> Response {
        var request = Request(url: url)
        request.options.timeout = generousTimeout
        let response = try await transport.send(request, context: RequestContext(logger: Logger(label: "PAC")))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response
    }

    static func transport(
        _ script: String,
        recorder: LogRecorder = LogRecorder()
    ) -> (POSIXTransport, PACProxyResolver) {
        let pac = PACProxyResolver(source: .script(script), configuration: limits, logger: recorder.logger)
        return (POSIXTransport(configuration: .init(proxyResolver: pac)), pac)
    }

    @Test func onePathGoesThroughTheProxyAndOthersDirect() async throws {
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        try await withTinyproxy { proxy in
            let (transport, pac) = Self.transport("""
                function FindProxyForURL(url, host) {
                    if (shExpMatch(url, "*/via-proxy/*")) return "PROXY 127.0.0.1:\(proxy.port)";
                    return "DIRECT";
                }
                """)
            let proxied = try await Self.send(transport, origin.url("/via-proxy/a"))
            let direct = try await Self.send(transport, origin.url("/direct/b"))
            #expect(proxied.route == proxy.route())
            #expect(direct.route == .direct)
            #expect(proxy.log.contains("/via-proxy/a"), "\(proxy.log)")
            #expect(!proxy.log.contains("/direct/b"))
            #expect(origin.requests.map(\.target) == ["/via-proxy/a", "/direct/b"])
            try await transport.shutdown()
            try await pac.shutdown()
        }
    }

    @Test func failoverPastADeadProxyToTheNextEntry() async throws {
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        let dead = RefusingPort()
        try await withTinyproxy { proxy in
            let (transport, pac) = Self.transport("""
                function FindProxyForURL(url, host) {
                    return "PROXY 127.0.0.1:\(dead.port); PROXY 127.0.0.1:\(proxy.port); DIRECT";
                }
                """)
            let response = try await Self.send(transport, origin.url("/failover"))
            #expect(response.status == .ok)
            #expect(response.route == proxy.route())
            #expect(proxy.log.contains("/failover"), "\(proxy.log)")
            try await transport.shutdown()
            try await pac.shutdown()
        }
    }

    @Test func aDeadProxyThenDirect() async throws {
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        let dead = RefusingPort()
        let (transport, pac) = Self.transport("""
            function FindProxyForURL(url, host) { return "PROXY 127.0.0.1:\(dead.port); DIRECT"; }
            """)
        let response = try await Self.send(transport, origin.url("/fallback"))
        #expect(response.status == .ok)
        #expect(response.route == .direct)
        #expect(origin.requests.map(\.target) == ["/fallback"])
        try await transport.shutdown()
        try await pac.shutdown()
    }

    @Test func aPACFetchedOverHTTP() async throws {
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        try await withTinyproxy { proxy in
            let script = "function FindProxyForURL(u, h) { return 'PROXY 127.0.0.1:\(proxy.port)'; }"
            let pacServer = try LoopbackServer { request in
                request.target == "/proxy.pac"
                    ? .status(200, headers: [("Content-Type", "application/x-ns-proxy-autoconfig")],
                              body: Array(script.utf8))
                    : .status(404)
            }
            defer { pacServer.shutdown() }
            let pac = PACProxyResolver(source: .url(pacServer.url("/proxy.pac")),
                                       fetcher: TransportPACFetcher(transport: POSIXTransport()))
            let transport = POSIXTransport(configuration: .init(proxyResolver: pac))
            let response = try await Self.send(transport, origin.url("/fetched-pac"))
            #expect(response.route == proxy.route())
            #expect(proxy.log.contains("/fetched-pac"), "\(proxy.log)")
            // The PAC file itself was fetched directly, not through the proxy.
            #expect(!proxy.log.contains("/proxy.pac"))
            #expect(pacServer.requests.map(\.target) == ["/proxy.pac"])
            try await transport.shutdown()
            try await pac.shutdown()
        }
    }

    @Test(arguments: ["broken", "endless", "missing"])
    func aFailingPACMeansDirectWithinTheTimeLimit(_ kind: String) async throws {
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        let pacServer = try LoopbackServer { _ in
            switch kind {
            case "broken": .ok("function FindProxyForURL(u, h) { return 'PROXY 127.0.0.1:1' ")
            case "endless": .ok("function FindProxyForURL(u, h) { while (true) {} }")
            default: .status(404, body: Array("not here".utf8))
            }
        }
        defer { pacServer.shutdown() }
        let recorder = LogRecorder()
        let pac = PACProxyResolver(source: .url(pacServer.url("/proxy.pac")),
                                   fetcher: TransportPACFetcher(transport: POSIXTransport()),
                                   configuration: Self.limits, logger: recorder.logger)
        let transport = POSIXTransport(configuration: .init(proxyResolver: pac))
        let first = try await Self.send(transport, origin.url("/one"))
        let second = try await Self.send(transport, origin.url("/two"))
        #expect(first.route == .direct && second.route == .direct)
        #expect(origin.requests.map(\.target) == ["/one", "/two"])
        // One warning per load of the PAC file, naming why: the 404, the syntax error, or the time limit (the
        // endless loop was stopped, not waited out: no wall-clock assertion here, the suite's machine may be busy).
        // A failed load is remembered for 30 seconds, so on busy cores the second request may load it again.
        let warnings = recorder.messages(at: .warning)
        let loads = pacServer.requests.count
        #expect(loads >= 1 && warnings.count == loads, "\(loads) loads: \(warnings)")
        let reason = ["missing": "answered 404", "broken": "PAC script error", "endless": "time limit"][kind]!
        #expect(warnings.first?.contains(reason) == true, "\(warnings)")
        try await transport.shutdown()
        try await pac.shutdown()
    }

    /// A `SOCKS5` answer goes through a real SOCKS5 proxy, after the dead HTTP proxy before it in the answer.
    @Test(.enabled(if: MicrosocksPeer.shouldRun)) func aSOCKS5AnswerAfterADeadProxyGoesThroughMicrosocks() async throws {
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        let dead = RefusingPort()
        try await withMicrosocks { socks in
            let (transport, pac) = Self.transport("""
                function FindProxyForURL(url, host) {
                    return "PROXY 127.0.0.1:\(dead.port); SOCKS5 127.0.0.1:\(socks.port)";
                }
                """)
            let response = try await Self.send(transport, origin.url("/through-socks"))
            #expect(response.status == .ok)
            #expect(response.route == socks.route(remoteNames: true))
            #expect(origin.requests.map(\.target) == ["/through-socks"])
            try await transport.shutdown()
            try await pac.shutdown()
        }
        withExtendedLifetime(dead) {}
    }
}
