import FoundationEssentials
import HTTP2
import HTTPCore
import SocketTransport
import TestSupport
import Testing

/// An upload the server refused before processing it (`RST_STREAM` with `REFUSED_STREAM`, or a `GOAWAY` below
/// its stream) is sent again from the start when its body can be rewound, and fails with a typed error that says
/// why when it cannot. Against the scripted h2 server, which reads the accepted upload whole and answers its length
/// and byte sum.
@Suite("HTTP/2 upload refused and sent again", .enabled(if: H2FaultServer.shouldRun))
struct HTTP2UploadRetryTests {
    /// 1 MiB and a bit: more than the 64 KiB stream window, so the refused attempt had bytes in flight.
    private static let size = 1_100_000

    private static func byte(at offset: Int) -> UInt8 { UInt8(truncatingIfNeeded: offset &* 13 &+ offset >> 8) }

    /// What the server answers for the whole body: `LENGTH SUM`.
    private static let expectedAnswer: String = {
        var sum: UInt32 = 0
        for offset in 0..<size { sum &+= UInt32(byte(at: offset)) }
        return "\(size) \(sum)"
    }()

    /// The body as a stream of 64 KiB chunks made on every (re)play, or once only.
    private static func streamedBody(replayable: Bool) -> RequestBody {
        .stream(length: Int64(size), isReplayable: replayable) {
            let next = Locked(0)
            return RequestBody.Chunks {
                next.withLock { start -> [UInt8]? in
                    guard start < size else { return nil }
                    let end = min(start + 65_536, size)
                    defer { start = end }
                    return (start..<end).map(byte(at:))
                }
            }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let refusal: H2FaultServer.Refusal
        let inMemory: Bool
        var testDescription: String { "\(refusal), \(inMemory ? "bytes in memory" : "replayable stream")" }
    }

    static let rewindable = [H2FaultServer.Refusal.reset, .goAway].flatMap { refusal in
        [Case(refusal: refusal, inMemory: true), Case(refusal: refusal, inMemory: false)]
    }

    @Test(arguments: rewindable)
    func aRefusedUploadIsRewoundAndSentAgain(_ test: Case) async throws {
        try await withPeer(start: { try H2FaultServer.start(.refusingUploads(test.refusal, times: 1)) },
                           stop: { $0.stop() }) { server in
            let transport = http2Transport(priorKnowledge: true)
            let body = test.inMemory ? RequestBody.bytes((0..<Self.size).map(Self.byte(at:)))
                : Self.streamedBody(replayable: true)
            let (response, answer) = try await fetch(
                transport, testRequest(server.url("/upload"), method: .post, body: body))
            #expect(response.version == .http2)
            #expect(response.status == .ok)
            #expect(String(decoding: answer, as: UTF8.self) == Self.expectedAnswer)
            #expect(server.refusedUploads == 1)
            if test.refusal == .goAway { #expect(server.connections == 2) }
            try await transport.shutdown()
        }
    }

    @Test(arguments: [H2FaultServer.Refusal.reset, .goAway])
    func aRefusedOneTimeStreamFailsClearly(_ refusal: H2FaultServer.Refusal) async throws {
        try await withPeer(start: { try H2FaultServer.start(.refusingUploads(refusal, times: 1)) },
                           stop: { $0.stop() }) { server in
            let transport = http2Transport(priorKnowledge: true)
            let request = testRequest(server.url("/upload"), method: .post, body: Self.streamedBody(replayable: false))
            let error = await #expect(throws: ClientError.self) { _ = try await fetch(transport, request) }
            #expect(error?.code == .streamReset)
            #expect(error?.message.contains("cannot be sent again") == true, "\(String(describing: error))")
            #expect(server.refusedUploads == 1)
            // The connection still serves a body that can be sent again.
            let (after, answer) = try await fetch(
                transport, testRequest(server.url("/upload"), method: .post, body: Self.streamedBody(replayable: true)))
            #expect(after.status == .ok)
            #expect(String(decoding: answer, as: UTF8.self) == Self.expectedAnswer)
            #expect(server.refusedUploads == 1)
            try await transport.shutdown()
        }
    }
}
