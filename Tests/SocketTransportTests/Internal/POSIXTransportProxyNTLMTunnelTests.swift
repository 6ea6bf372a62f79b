import FoundationEssentials
import HTTPCore
import HTTPTesting
import SocketTransport
import TestSupport
import Testing

/// A `407` to `CONNECT` that offers NTLM on a kept-alive connection: the connection is kept, bound, for the
/// request that names it (the handshake's next `CONNECT` goes on it), and never handed to another request. A
/// `407` offering only Basic closes its connection. A `LoopbackServer` plays the proxy; squid's `ntlm_fake_auth`
/// covers the whole handshake in the interop suite.
@Suite struct POSIXTransportProxyNTLMTunnelTests {
    private static let origin = URL(string: "https://origin.example:8443/")!

    @Test(arguments: ["NTLM", "Basic realm=\"p\""])
    func theChallengedConnectionIsKeptOnlyForAConnectionBoundScheme(challenge: String) async throws {
        let proxy = try LoopbackServer { _ in
            .status(407, headers: [("Proxy-Authenticate", challenge)], body: Array("who?".utf8))
        }
        defer { proxy.shutdown() }
        let route = ProxyRoute.http(host: "127.0.0.1", port: proxy.port)
        let transport = POSIXTransport(configuration: .init(proxyResolver: ScriptedProxyResolver { _ in [route] }))
        let (first, _) = try await fetch(transport, testRequest(Self.origin))
        #expect(first.status == .proxyAuthenticationRequired)

        var context = testContext()
        context.preferredConnectionID = first.connectionID
        context.proxyAuthorization = ProxyAuthorization(proxy: route, value: "NTLM TlRMTVNTUAABAAAAB4IIAAAAAAAAAAAA")
        let (second, _) = try await fetch(transport, testRequest(Self.origin), context: context)
        #expect(second.status == .proxyAuthenticationRequired)
        // A request that names no connection never gets a kept one.
        let (third, _) = try await fetch(transport, testRequest(Self.origin))
        #expect(third.status == .proxyAuthenticationRequired)

        let requests = proxy.requests
        #expect(requests.map(\.method) == ["CONNECT", "CONNECT", "CONNECT"])
        #expect(requests[1].header("Proxy-Authorization") == "NTLM TlRMTVNTUAABAAAAB4IIAAAAAAAAAAAA")
        let bound = challenge == "NTLM"
        #expect((requests[1].connectionIndex == requests[0].connectionIndex) == bound)
        #expect((second.connectionID == first.connectionID) == bound)
        #expect(requests[2].connectionIndex != requests[0].connectionIndex)
        #expect(requests[2].connectionIndex != requests[1].connectionIndex)
        try await transport.shutdown()
    }
}
