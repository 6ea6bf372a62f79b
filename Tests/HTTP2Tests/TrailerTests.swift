import FoundationEssentials
import HTTP2
import HTTPCore
import HTTPPipeline
import SocketTransport
import TestSupport
import Testing

/// Trailer fields delivered to the caller once the body has been read: from a real nginx (`add_trailer`) over
/// HTTP/2 (where nginx keeps the `Content-Length` beside them, the case curl 7.88 loses them in) and over HTTP/1.1
/// chunked transfer coding, through the transport and through the pipeline; and from the scripted h2 server.
@Suite("Trailers", .enabled(if: TrailerNginxPeer.shouldRun))
struct TrailerTests {
    static let checksum = HTTPField.Name("X-Checksum")!
    static let other = HTTPField.Name("X-Other")!

    /// Whether `trailers` are nginx's two, in order.
    static func areNginxTrailers(_ trailers: HTTPFields?) -> Bool {
        guard let trailers else { return false }
        return trailers.map(\.name) == [checksum, other] && trailers[checksum] == "abc123"
            && trailers[other] == "two words"
    }

    @Test func h2TrailersArriveAfterTheBodyBesideAContentLength() async throws {
        try await withTrailerNginx { nginx in
            let transport = http2Transport()
            let request = h2Request(nginx.url("/t.txt", on: .h2TLS), certificates: nginx.certificates)
            let response = try await transport.send(request, context: testContext())
            #expect(response.version == .http2)
            #expect(response.headerFields[.contentLength] == "\(TrailerNginxPeer.body.count)")
            #expect(response.headerFields[Self.checksum] == nil, "trailers are not merged into the head")
            #expect(response.body.trailers == nil, "no trailers before the body has been read")
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(body == TrailerNginxPeer.body)
            #expect(Self.areNginxTrailers(response.body.trailers), "\(String(describing: response.body.trailers))")
            try await transport.shutdown()
        }
    }

    @Test func h2TrailersReachTheCollectedAndTheStreamedResponse() async throws {
        try await withTrailerNginx { nginx in
            let client = Client(transport: http2Transport(priorKnowledge: true))
            let url = nginx.url("/t.txt", on: .h2Cleartext)
            let collected = try await client.send(testRequest(url))
            #expect(collected.head.version == .http2)
            #expect(collected.body == TrailerNginxPeer.body)
            #expect(Self.areNginxTrailers(collected.trailers), "\(String(describing: collected.trailers))")
            let streamed = try await client.stream(testRequest(url))
            var bytes: [UInt8] = []
            for try await chunk in streamed.body { bytes += chunk }
            #expect(bytes == TrailerNginxPeer.body)
            #expect(Self.areNginxTrailers(streamed.body.trailers))
            let plain = try await client.send(testRequest(nginx.url("/plain.txt", on: .h2Cleartext)))
            #expect(plain.body == TrailerNginxPeer.body)
            #expect(plain.trailers == nil)
            try await client.shutdown()
        }
    }

    @Test func http1ChunkedTrailersAreDelivered() async throws {
        try await withTrailerNginx { nginx in
            // Without the plug-in: the HTTP/1.1 path alone.
            let transport = POSIXTransport()
            let url = nginx.url("/t.txt", on: .http1)
            let (response, body) = try await fetch(transport, testRequest(url))
            #expect(response.version == .http1_1)
            #expect(response.headerFields[.transferEncoding] == "chunked")
            #expect(body == TrailerNginxPeer.body)
            #expect(Self.areNginxTrailers(response.body.trailers), "\(String(describing: response.body.trailers))")
            // The next response on the same connection has none: the parser does not carry them over.
            let (plain, _) = try await fetch(transport, testRequest(nginx.url("/plain.txt", on: .http1)))
            #expect(plain.connectionID == response.connectionID)
            #expect(plain.body.trailers == nil)
            try await transport.shutdown()

            let client = Client(transport: .posix())
            let collected = try await client.send(testRequest(url))
            #expect(Self.areNginxTrailers(collected.trailers))
            let streamed = try await client.stream(testRequest(url))
            var bytes: [UInt8] = []
            for try await chunk in streamed.body { bytes += chunk }
            #expect(bytes == TrailerNginxPeer.body)
            #expect(Self.areNginxTrailers(streamed.body.trailers))
            try await client.shutdown()
        }
    }
}

/// Trailers from the scripted h2 server: beside a `Content-Length`, and a trailer section over the header list
/// limit, which fails its stream alone.
@Suite("Trailers: scripted h2 server", .enabled(if: H2FaultServer.shouldRun))
struct ScriptedTrailerTests {
    @Test func trailersBesideAContentLengthAreDelivered() async throws {
        try await withPeer(start: { try H2FaultServer.start(.normal) }, stop: { $0.stop() }) { server in
            let transport = http2Transport(priorKnowledge: true)
            let (response, body) = try await fetch(transport, testRequest(server.url("/trailers")))
            #expect(response.headerFields[.contentLength] == "2")
            #expect(body == Array("ok".utf8))
            let trailers = try #require(response.body.trailers)
            #expect(trailers[HTTPField.Name("X-Checksum")!] == "sha256-ok")
            #expect(trailers[HTTPField.Name("X-Status")!] == "0")
            try await transport.shutdown()
        }
    }

    @Test func anOversizedTrailerSectionFailsItsStreamAlone() async throws {
        try await withPeer(start: { try H2FaultServer.start(.normal) }, stop: { $0.stop() }) { server in
            let transport = http2Transport(priorKnowledge: true)
            let response = try await transport.send(testRequest(server.url("/trailer-flood")), context: testContext())
            await #expect {
                _ = try await response.body.collect(upTo: 1 << 20)
            } throws: { error in
                (error as? ClientError)?.code == .protocolViolation
            }
            let (after, body) = try await fetch(transport, testRequest(server.url("/ok")))
            #expect(after.status == .ok && body == Array("ok".utf8))
            #expect(after.connectionID == response.connectionID)
            try await transport.shutdown()
        }
    }
}
