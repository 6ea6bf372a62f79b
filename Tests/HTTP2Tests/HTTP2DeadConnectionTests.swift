import FoundationEssentials
import HTTP2
import HTTPCore
import SocketTransport
import TestSupport
import Testing

/// An idle HTTP/2 connection that died is never handed out: one the server closed (with or without `GOAWAY`), and,
/// with ``HTTP2Protocol/Configuration/pingInterval``, one whose peer stopped answering `PING`. Against the
/// scripted h2 server.
@Suite("HTTP/2 dead connections", .enabled(if: H2FaultServer.shouldRun))
struct HTTP2DeadConnectionTests {
    private func withServer(_ body: (H2FaultServer) async throws -> Void) async throws {
        try await withPeer(start: { try H2FaultServer.start(.normal) }, stop: { $0.stop() }, body)
    }

    private func transport(pingInterval: Duration? = nil) -> POSIXTransport {
        POSIXTransport(configuration: .init(
            protocols: [.http2(.init(speaksCleartextWithPriorKnowledge: true, pingInterval: pingInterval))]))
    }

    @Test func pingsAreOffByDefault() {
        #expect(HTTP2Protocol.Configuration().pingInterval == nil)
    }

    @Test func anIdleConnectionTheServerClosedIsReplacedForTheNextRequest() async throws {
        try await withServer { server in
            let transport = transport()
            let (first, _) = try await fetch(transport, testRequest(server.url("/then-close")))
            #expect(first.status == .ok)
            #expect(await eventually { !server.outputLines(startingWith: "CLOSED").isEmpty })
            // Whether or not the driver has seen the close yet, the request goes out on a working connection.
            let (second, body) = try await fetch(transport, testRequest(server.url("/ok")))
            #expect(second.status == .ok && body == Array("ok".utf8))
            #expect(second.connectionID != first.connectionID)
            #expect(server.connections == 2)
            try await transport.shutdown()
        }
    }

    /// The race itself, on cue: the server closes the connection as the next request arrives, without answering.
    /// An idempotent request is sent again on a new connection; a `POST` is not (the server may have acted on it).
    @Test func aRequestTheServerClosedTheConnectionUnderIsSentAgainOnlyWhenIdempotent() async throws {
        try await withServer { server in
            let transport = transport()
            let (first, _) = try await fetch(transport, testRequest(server.url("/then-arm")))
            let (retried, body) = try await fetch(transport, testRequest(server.url("/ok?get")))
            #expect(retried.status == .ok && body == Array("ok".utf8))
            #expect(retried.connectionID != first.connectionID)
            #expect(server.connections == 2)
            #expect(server.requestCount(path: "/ok?get") == 2, "sent on the closed connection, then again")
            _ = try await fetch(transport, testRequest(server.url("/then-arm")))
            let post = testRequest(server.url("/ok?post"), method: .post, body: .bytes(Array("x".utf8)))
            await #expect {
                _ = try await fetch(transport, post)
            } throws: { error in
                let code = (error as? ClientError)?.code
                return code == .receiveFailed || code == .sendFailed
            }
            #expect(server.requestCount(path: "/ok?post") == 1)
            try await transport.shutdown()
        }
    }

    @Test func anIdleConnectionTheServerWentAwayOnIsReplacedForTheNextRequest() async throws {
        try await withServer { server in
            let transport = transport()
            let (first, _) = try await fetch(transport, testRequest(server.url("/then-goaway")))
            #expect(first.status == .ok)
            let (second, body) = try await fetch(transport, testRequest(server.url("/ok")))
            #expect(second.status == .ok && body == Array("ok".utf8))
            #expect(second.connectionID != first.connectionID)
            #expect(server.connections == 2)
            try await transport.shutdown()
        }
    }

    @Test func aConnectionThatAnswersPingsIsKept() async throws {
        try await withServer { server in
            // A long interval: an answer counts when it comes within one, and a busy machine must not make a live
            // peer look dead.
            let transport = transport(pingInterval: .seconds(2))
            let (first, _) = try await fetch(transport, testRequest(server.url("/ok?1")))
            // Two probes answered: the connection stays.
            #expect(await eventually { server.outputLines(startingWith: "PING 1").count >= 2 })
            let (second, _) = try await fetch(transport, testRequest(server.url("/ok?2")))
            #expect(second.connectionID == first.connectionID)
            #expect(server.connections == 1)
            try await transport.shutdown()
        }
    }

    @Test func aConnectionThatStopsAnsweringPingsIsClosedAndReplaced() async throws {
        try await withServer { server in
            let transport = transport(pingInterval: .milliseconds(300))
            // After this answer the server reads on but sends nothing, PING ACKs included: a dead peer.
            let (first, _) = try await fetch(transport, testRequest(server.url("/then-deaf")))
            #expect(first.status == .ok)
            // The unanswered probe closes the connection; the server sees the close as the end of its reads.
            #expect(await eventually { server.outputLines(startingWith: "ENDED 1").count == 1 })
            let (second, body) = try await fetch(transport, testRequest(server.url("/ok")))
            #expect(second.status == .ok && body == Array("ok".utf8))
            #expect(second.connectionID != first.connectionID)
            #expect(server.connections == 2)
            try await transport.shutdown()
        }
    }
}
