import FoundationEssentials
import HTTP2
import HTTPCore
import SocketTransport
import TestSupport
import Testing

/// The faults of issue 31's list that need a misbehaving server, against the scripted h2 server (python's `h2`): an
/// upload the server never opens the window for, a server that never sends SETTINGS under an upload, a
/// `CONTINUATION` flood, and a burst of requests the client resets.
@Suite("HTTP/2 faults: starvation and floods", .enabled(if: H2FaultServer.shouldRun))
struct HTTP2StarvationAndFloodTests {
    private func withServer(_ mode: H2FaultServer.Mode, _ body: (H2FaultServer) async throws -> Void) async throws {
        try await withPeer(start: { try H2FaultServer.start(mode) }, stop: { $0.stop() }, body)
    }

    /// 1 MiB: far past the 64 KiB the server's window allows and the 256 KiB the stream buffers, so the uploader
    /// itself waits for room that never comes.
    private static let upload = RequestBody.bytes([UInt8](repeating: 0x61, count: 1 << 20))

    @Test func anUploadTheServerNeverOpensTheWindowForFailsByItsTimeout() async throws {
        try await withServer(.normal) { server in
            let transport = http2Transport(priorKnowledge: true)
            // `/slow` is never answered: the request waits on flow control alone.
            let request = testRequest(server.url("/slow"), method: .put, body: Self.upload, timeout: .seconds(2))
            await #expect {
                _ = try await fetch(transport, request)
            } throws: { error in
                (error as? ClientError)?.code == .timedOut
            }
            // The starved stream failed alone: the connection still answers a request without a body.
            let (response, body) = try await fetch(transport, testRequest(server.url("/ok")))
            #expect(response.status == .ok && body == Array("ok".utf8))
            #expect(server.connections == 1)
            try await transport.shutdown()
        }
    }

    @Test func anUploadToAServerThatNeverSendsSettingsFailsByItsTimeout() async throws {
        try await withServer(.silent) { server in
            let transport = http2Transport(priorKnowledge: true)
            let request = testRequest(server.url("/ok"), method: .put, body: Self.upload, timeout: .seconds(2))
            await #expect {
                _ = try await fetch(transport, request)
            } throws: { error in
                (error as? ClientError)?.code == .timedOut
            }
            try await transport.shutdown()
        }
    }

    @Test func aContinuationFloodEndsTheConnectionWithATypedError() async throws {
        try await withServer(.normal) { server in
            let transport = http2Transport(priorKnowledge: true)
            await #expect {
                _ = try await fetch(transport, testRequest(server.url("/continuation-flood")))
            } throws: { error in
                (error as? ClientError)?.code == .protocolViolation
            }
            // The client gave up on the connection long before the server's 100,000 frames were written.
            #expect(await eventually { !server.outputLines(startingWith: "FLOOD-ENDED").isEmpty })
            let written = server.outputLines(startingWith: "FLOOD-ENDED").first
                .flatMap { Int($0.split(separator: " ")[1]) }
            #expect((written ?? .max) < 100_000, "the server wrote \(String(describing: written)) CONTINUATION frames")
            // A new connection serves the next request.
            let (response, body) = try await fetch(transport, testRequest(server.url("/ok")))
            #expect(response.status == .ok && body == Array("ok".utf8))
            #expect(server.connections == 2)
            try await transport.shutdown()
        }
    }

    /// 150 requests that the server never answers, all cancelled: every reset gives its stream back, so the
    /// connection (100 streams at most) still carries the next request.
    @Test func resettingABurstOfStreamsGivesTheirRoomBack() async throws {
        try await withServer(.normal) { server in
            let transport = http2Transport(priorKnowledge: true, maxConnectionsPerHost: 1)
            _ = try await fetch(transport, testRequest(server.url("/ok?first")))
            let urls = (0..<150).map { server.url("/slow?\($0)") }
            let burst = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for url in urls {
                        group.addTask { _ = try await fetch(transport, testRequest(url)) }
                    }
                    try await group.waitForAll()
                }
            }
            // Cancel once the server has seen the first 100 (the session's limit before its SETTINGS say more).
            #expect(await eventually { server.requestCount(path: "/slow") >= 100 })
            burst.cancel()
            _ = try? await burst.value
            let (response, body) = try await fetch(transport, testRequest(server.url("/ok?after")))
            #expect(response.status == .ok && body == Array("ok".utf8))
            #expect(server.connections == 1)
            try await transport.shutdown()
        }
    }
}
