import FoundationEssentials
import HTTP2
import HTTPAuthentication
import HTTPCore
import HTTPPipeline
import SocketTransport
import TestSupport
import Testing

/// Digest authentication over HTTP/2, against Apache's `mod_auth_digest` with `mod_http2` (cleartext h2 with prior
/// knowledge): the challenge, the answer and the next request's nonce count all travel on h2 streams.
@Suite("HTTP/2 with Digest against Apache", .enabled(if: ApachePeer.shouldRun))
struct HTTP2DigestApacheTests {
    @Test func digestAnswersAChallengeAndCountsItsNonceOverH2() async throws {
        try await withApache(speaksH2c: true) { apache in
            let client = Client(transport: http2Transport(priorKnowledge: true), authenticators: [.digest()])
            var request = testRequest(apache.url("/digest/index.txt"))
            request.options.credential = Credential(user: ApachePeer.user, password: ApachePeer.password)
            let first = try await client.send(request)
            #expect(first.status == .ok)
            #expect(first.head.version == .http2)
            #expect(String(decoding: first.body, as: UTF8.self) == "digest secret\n")
            // The next request goes with the session's nonce up front (nc=00000002): no second challenge.
            let second = try await client.send(testRequest(apache.url("/digest/index.txt")))
            #expect(second.status == .ok)
            #expect(second.head.version == .http2)
            let lines = apache.accessLog.split(separator: "\n").filter { $0.contains("/digest/") }
            #expect(lines.allSatisfy { $0.contains("HTTP/2.0") }, "\(apache.accessLog)")
            #expect(lines.map { $0.split(separator: " ").last.map(String.init) } == ["401", "200", "200"],
                    "\(apache.accessLog)")
            try await client.shutdown()
        }
    }
}
