import FoundationEssentials
import HTTP2
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import TestSupport
import Testing

/// HTTP/2 inside a `CONNECT` tunnel: through a real HTTP proxy (tinyproxy, and squid with Basic proxy
/// authentication answered by the pipeline) to nginx speaking h2. The hop to the proxy is HTTP/1.1 (`CONNECT`); TLS
/// to the origin inside the tunnel offers `h2,http/1.1` by ALPN and nginx chooses `h2`, so the requests share one
/// tunnelled connection.
@Suite("HTTP/2 through a CONNECT tunnel", .enabled(if: HTTP2NginxPeer.shouldRun))
struct HTTP2ProxyTunnelTests {
    /// One GET, then nine at once, through `route`; checks they went over h2 on one connection, as nginx saw them.
    private func tenGETs(
        through route: ProxyRoute, credential: Credential? = nil, to nginx: HTTP2NginxPeer, tag: String
    ) async throws {
        let client = Client(transport: POSIXTransport(configuration: .init(
            proxyResolver: ScriptedProxyResolver { _ in [route] }, protocols: [.http2()])))
        var request = h2Request(nginx.url("/1k.bin?\(tag)"), certificates: nginx.certificates)
        request.options.proxyCredential = credential
        let first = try await client.send(request)
        let others = try await withThrowingTaskGroup(of: ClientResponse.self) { group in
            for _ in 0..<9 { group.addTask { [request] in try await client.send(request) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let responses = [first] + others
        #expect(responses.allSatisfy { $0.head.version == .http2 && $0.status == .ok && $0.body == NginxPeer.oneKiB })
        #expect(Set(responses.map(\.info.connectionID)).count == 1)
        #expect(await eventually { nginx.accessLog.filter { $0.contains(tag) }.count >= 10 })
        let lines = nginx.accessLog.filter { $0.contains(tag) }
        #expect(lines.count == 10 && lines.allSatisfy { $0.contains("HTTP/2.0") }, "nginx saw: \(lines)")
        #expect(nginx.connections(servingPath: tag).count == 1)
        try await client.shutdown()
    }

    @Test(.enabled(if: TinyproxyPeer.shouldRun)) func h2ThroughTinyproxy() async throws {
        try await withHTTP2Nginx { nginx in
            try await withTinyproxy { proxy in
                try await tenGETs(through: proxy.route(), to: nginx, tag: "tinyproxy")
                // One CONNECT carried them all: the proxy hop stayed HTTP/1.1.
                let connects = proxy.log.split(separator: "\n").filter { $0.contains("): CONNECT ") }
                #expect(connects.count == 1, "\(proxy.log)")
            }
        }
    }

    @Test(.enabled(if: SquidPeer.shouldRun)) func h2ThroughSquidWithProxyAuthentication() async throws {
        try await withHTTP2Nginx { nginx in
            try await withSquid { proxy in
                let credential = Credential(user: SquidPeer.user, password: SquidPeer.password)
                try await tenGETs(through: proxy.route(), credential: credential, to: nginx, tag: "squid")
                // squid logs a tunnel when it ends: after the client shut down.
                #expect(await eventually { proxy.accessLog.contains("TCP_TUNNEL/200") }, "\(proxy.accessLog)")
                let tunnels = proxy.accessLog.split(separator: "\n").filter { $0.contains("TCP_TUNNEL/200 ") }
                #expect(tunnels.count == 1, "\(proxy.accessLog)")
                #expect(tunnels.allSatisfy { $0.contains(SquidPeer.user) }, "\(proxy.accessLog)")
            }
        }
    }
}
