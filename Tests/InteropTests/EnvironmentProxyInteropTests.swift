import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import TestSupport
import Testing

/// The library with ``EnvironmentProxyResolver`` and ``FixedProxyResolver`` through a real tinyproxy: the
/// variables decide whether the bytes go through the proxy (its log names the request, and the origin sees its
/// `Via` field) or straight to the origin.
@Suite("environment proxies interop", .enabled(if: TinyproxyPeer.shouldRun))
struct EnvironmentProxyInteropTests {
    private static func get(_ client: Client, _ url: URL) async throws -> ClientResponse {
        var request = Request(url: url)
        request.options.timeout = generousTimeout
        return try await client.send(request)
    }

    @Test func theVariablesChooseTheProxyOrTheOrigin() async throws {
        let origin = try LoopbackServer { request in .ok(request.header("Via") ?? "direct") }
        defer { origin.shutdown() }
        try await withTinyproxy { proxy in
            let environment = [
                "http_proxy": "http://127.0.0.1:\(proxy.port)",
                "HTTP_PROXY": "http://127.0.0.1:1",  // never read
                "no_proxy": "localhost, .internal",
            ]
            let resolver = try EnvironmentProxyResolver(environment: environment)
            let client = Client(transport: .posix(.init(proxyResolver: resolver)))
            let proxied = try await Self.get(client, origin.url("/through"))
            #expect(proxied.status == .ok)
            #expect(String(decoding: proxied.body, as: UTF8.self).contains("tinyproxy"))
            #expect(proxy.log.contains("GET http://127.0.0.1:\(origin.port)/through"), "\(proxy.log)")

            let direct = try await Self.get(client, try #require(URL(string: "http://localhost:\(origin.port)/direct")))
            #expect(direct.body == Array("direct".utf8))
            #expect(!proxy.log.contains("/direct"), "\(proxy.log)")
            try await client.shutdown()
        }
    }

    @Test func allProxyAndAFixedResolverWithItsNoProxyList() async throws {
        let origin = try LoopbackServer { request in .ok(request.header("Via") ?? "direct") }
        defer { origin.shutdown() }
        try await withTinyproxy { proxy in
            let all = try EnvironmentProxyResolver(environment: ["ALL_PROXY": "127.0.0.1:\(proxy.port)"])
            let client = Client(transport: .posix(.init(proxyResolver: all)))
            let response = try await Self.get(client, origin.url("/all"))
            #expect(String(decoding: response.body, as: UTF8.self).contains("tinyproxy"))
            #expect(proxy.log.contains("GET http://127.0.0.1:\(origin.port)/all"), "\(proxy.log)")
            try await client.shutdown()

            let fixed = FixedProxyResolver(host: "127.0.0.1", port: proxy.port,
                                           noProxy: NoProxyList("127.0.0.1:\(origin.port)"))
            let fixedClient = Client(transport: .posix(.init(proxyResolver: fixed)))
            let bypassed = try await Self.get(fixedClient, origin.url("/fixed"))
            #expect(bypassed.body == Array("direct".utf8))
            #expect(!proxy.log.contains("/fixed"), "\(proxy.log)")
            try await fixedClient.shutdown()
        }
    }

    /// ASI set the proxy on each request: `RequestOptions.proxyResolver` replaces the transport's resolver (none
    /// here, then a direct one) for that request only.
    @Test func aRequestsOwnResolverReplacesTheTransports() async throws {
        let origin = try LoopbackServer { request in .ok(request.header("Via") ?? "direct") }
        defer { origin.shutdown() }
        try await withTinyproxy { proxy in
            for transportResolver in [nil, FixedProxyResolver(.direct)] as [FixedProxyResolver?] {
                let client = Client(transport: .posix(.init(proxyResolver: transportResolver)))
                var request = Request(url: origin.url("/own-\(transportResolver == nil)"))
                request.options.timeout = generousTimeout
                request.options.proxyResolver = FixedProxyResolver(host: "127.0.0.1", port: proxy.port)
                let proxied = try await client.send(request)
                #expect(String(decoding: proxied.body, as: UTF8.self).contains("tinyproxy"))
                #expect(proxy.log.contains("GET \(request.url.absoluteString)"), "\(proxy.log)")
                let direct = try await Self.get(client, origin.url("/plain-\(transportResolver == nil)"))
                #expect(direct.body == Array("direct".utf8))
                try await client.shutdown()
            }
        }
    }
}
