import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// The per-request proxy settings (`RequestOptions.proxyResolver`, `tunnelsThroughProxy`) reach the transport
/// with every hop, a redirect to another origin included, so the transport can ask the request's resolver there.
@Suite struct RequestProxyOptionsTests {
    @Test func theRequestsResolverAndTunnelFlagGoWithEveryHop() async throws {
        let seen = Mutex<[(String, [ProxyRoute]?, Bool)]>([])
        let transport = ScriptedTransport { request, _ in
            let routes = try await request.options.proxyResolver?.routes(for: request.url)
            seen.withLock { $0.append((request.url.absoluteString, routes, request.options.tunnelsThroughProxy)) }
            return request.url.host() == "a.example" ? .redirect(302, to: "http://b.example/next") : Response(status: .ok)
        }
        let client = Client(transport: transport)
        var request = Request("http://a.example/start")
        request.options.proxyResolver = FixedProxyResolver(host: "proxy.example", port: 3128,
                                                           noProxy: NoProxyList("b.example"))
        request.options.tunnelsThroughProxy = true
        _ = try await client.send(request)
        let hops = seen.withLock { $0 }
        #expect(hops.map(\.0) == ["http://a.example/start", "http://b.example/next"])
        #expect(hops.map(\.1) == [[.http(host: "proxy.example", port: 3128)], [.direct]])
        #expect(hops.allSatisfy { $0.2 })
    }

    @Test func withoutThemTheTransportsOwnSettingsApply() async throws {
        let seen = Mutex<(Bool, Bool)?>(nil)
        let transport = ScriptedTransport { request, _ in
            seen.withLock { $0 = (request.options.proxyResolver == nil, request.options.tunnelsThroughProxy) }
            return Response(status: .ok)
        }
        _ = try await Client(transport: transport).send(Request("http://a.example/"))
        #expect(seen.withLock { $0 }.map { $0.0 && !$0.1 } == true)
    }
}
