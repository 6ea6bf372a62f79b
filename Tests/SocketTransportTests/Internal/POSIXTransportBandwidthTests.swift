import FoundationEssentials
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every body byte is asked for or settled, in both directions, and reads and writes stay within their grants.
@Suite struct POSIXTransportBandwidthTests {
    static func context(_ limiter: RecordingBandwidthLimiter, limit: Int? = nil) -> RequestContext {
        RequestContext(bandwidth: limiter, bandwidthLimit: limit, logger: testContext().logger)
    }

    static func payload(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    }

    /// No settlement used more than its grant, and every one settles a grant: no body byte was read unasked.
    static func withinGrants(_ limiter: RecordingBandwidthLimiter, _ direction: TransferDirection) -> Bool {
        limiter.settlements(direction).allSatisfy { $0.granted > 0 && $0.used <= $0.granted }
    }

    @Test func bodyThatArrivesWithTheHeadIsGrantedAndSettled() async throws {
        let server = try LoopbackServer { _ in
            .raw("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", thenClose: false)
        }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter.unlimited
        let (_, body) = try await fetch(POSIXTransport(), testRequest(server.url("/small")),
                                        context: Self.context(limiter))
        #expect(body == Array("hello".utf8))
        #expect(limiter.settledBytes(.download) == 5)
        #expect(limiter.askCount(.download) >= 1, "the read of the head was asked for")
        #expect(Self.withinGrants(limiter, .download))
        #expect(limiter.settledBytes(.upload) == 0)
    }

    @Test func theHeadIsReadInGrantsAndItsBytesAreGivenBack() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Padding: \(String(repeating: "p", count: 100))\r\n\r\n"
        let server = try LoopbackServer { _ in .raw(head + "hello", thenClose: false) }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter.chunked(16)
        let (_, body) = try await fetch(POSIXTransport(), testRequest(server.url("/padded")),
                                        context: Self.context(limiter))
        #expect(body == Array("hello".utf8))
        // The head took several reads of at most 16 bytes; only the body's 5 bytes were used.
        #expect(limiter.grants(.download).count >= head.utf8.count / 16)
        #expect(limiter.grants(.download).allSatisfy { (1...16).contains($0) })
        #expect(limiter.settledBytes(.download) == 5)
        #expect(Self.withinGrants(limiter, .download))
    }

    @Test func downloadReadsStayWithinSmallGrantsAndAreAllSettled() async throws {
        let payload = Self.payload(100_000)
        let server = try LoopbackServer { _ in .slowBody(payload, firstPart: 10, pause: .milliseconds(10)) }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter.chunked(1_000)
        let (_, body) = try await fetch(POSIXTransport(), testRequest(server.url("/big")),
                                        context: Self.context(limiter))
        #expect(body == payload)
        #expect(limiter.settledBytes(.download) == payload.count)
        #expect(limiter.grants(.download).allSatisfy { (1...1_000).contains($0) })
        // Every body byte, the first ones with the head included, was read in grants of at most 1,000 bytes.
        #expect(limiter.grants(.download).count >= payload.count / 1_000)
        #expect(Self.withinGrants(limiter, .download))
        // Every grant is settled exactly once.
        #expect(limiter.grants(.download).count == limiter.settlements(.download).count)
    }

    @Test func chunkedBodyIsSettledWithoutItsFraming() async throws {
        let pieces = [Self.payload(3_000), Self.payload(70_000), Array("end".utf8)]
        let server = try LoopbackServer { _ in .chunked(chunks: pieces, chunkDelay: .milliseconds(5)) }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter.chunked(4_096)
        let (_, body) = try await fetch(POSIXTransport(), testRequest(server.url("/chunked")),
                                        context: Self.context(limiter))
        #expect(body == pieces.flatMap { $0 })
        #expect(limiter.settledBytes(.download) == body.count)
        #expect(Self.withinGrants(limiter, .download))
    }

    @Test func drainedBodyOnAKeptAliveConnectionIsSettled() async throws {
        let payload = Self.payload(20_000)
        let server = try LoopbackServer { request in
            request.path == "/drain" ? .slowBody(payload, firstPart: 100, pause: .milliseconds(50)) : .ok("next")
        }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let limiter = RecordingBandwidthLimiter.chunked(2_000)
        let response = try await transport.send(testRequest(server.url("/drain")), context: Self.context(limiter))
        await response.body.discard()
        #expect(limiter.settledBytes(.download) == payload.count)
        #expect(limiter.askCount(.download) >= 1)
        #expect(Self.withinGrants(limiter, .download))
        // The drain read to the end, so the connection was kept.
        let (next, text) = try await fetch(transport, testRequest(server.url("/next")))
        #expect(text == Array("next".utf8))
        #expect(next.connectionID == response.connectionID)
    }

    @Test func bytesUploadIsSentWithinGrantsAndSettled() async throws {
        let payload = Self.payload(150_000)
        let server = try LoopbackServer { request in .ok("\(request.body.count)") }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter.chunked(7_000)
        let request = testRequest(server.url("/up"), method: .put, body: .bytes(payload))
        _ = try await fetch(POSIXTransport(), request, context: Self.context(limiter))
        #expect(server.requests.first?.body == payload)
        #expect(limiter.settledBytes(.upload) == payload.count)
        #expect(limiter.grants(.upload).allSatisfy { (1...7_000).contains($0) })
        #expect(limiter.settlements(.upload).allSatisfy { $0.used == $0.granted })
    }

    @Test func smallBytesUploadIsSettledToo() async throws {
        let server = try LoopbackServer { request in .ok("\(request.body.count)") }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter.unlimited
        let request = testRequest(server.url("/up"), method: .post, body: .bytes(Array("tiny".utf8)))
        _ = try await fetch(POSIXTransport(), request, context: Self.context(limiter))
        #expect(server.requests.first?.body == Array("tiny".utf8))
        #expect(limiter.settledBytes(.upload) == 4)
    }

    @Test func fileUploadIsReadInGrantSizedPiecesAndSettled() async throws {
        let payload = Self.payload(200_000)
        let path = try temporaryFile(payload)
        defer { unlink(path) }
        let server = try LoopbackServer { request in .ok("\(request.body.count)") }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter.chunked(9_000)
        let request = testRequest(server.url("/up"), method: .put, body: try .file(atPath: path))
        _ = try await fetch(POSIXTransport(), request, context: Self.context(limiter))
        #expect(server.requests.first?.body == payload)
        #expect(limiter.settledBytes(.upload) == payload.count)
        #expect(limiter.grants(.upload).allSatisfy { (1...9_000).contains($0) })
        #expect(limiter.settlements(.upload).allSatisfy { $0.used == $0.granted })
    }

    @Test(arguments: [nil, 30_000] as [Int64?])
    func streamUploadIsSettled(length: Int64?) async throws {
        let pieces = [Self.payload(12_000), Self.payload(18_000)]
        let server = try LoopbackServer { request in .ok("\(request.body.count)") }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter.chunked(5_000)
        let body = RequestBody.stream(length: length) { RequestBody.Chunks(pieces) }
        let request = testRequest(server.url("/up"), method: .post, body: body)
        _ = try await fetch(POSIXTransport(), request, context: Self.context(limiter))
        #expect(server.requests.first?.body == pieces.flatMap { $0 })
        #expect(limiter.settledBytes(.upload) == 30_000)
        #expect(limiter.grants(.upload).allSatisfy { (1...5_000).contains($0) })
    }

    @Test func everyCallCarriesTheRequestAndItsLimit() async throws {
        let server = try LoopbackServer { request in .ok(bytes: request.body) }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter.chunked(50_000)
        let context = Self.context(limiter, limit: 12_345)
        let request = testRequest(server.url("/echo"), method: .post, body: .bytes(Self.payload(100_000)))
        _ = try await fetch(POSIXTransport(), request, context: context)
        #expect(Set(limiter.transfers) == [
            BandwidthTransfer(requestID: context.requestID, direction: .upload, limit: 12_345),
            BandwidthTransfer(requestID: context.requestID, direction: .download, limit: 12_345),
        ])
    }

    @Test func cancellationWhileTheLimiterWaitsDuringDownloadEndsTheRequest() async throws {
        let payload = Self.payload(50_000)
        let server = try LoopbackServer { _ in .slowBody(payload, firstPart: 10, pause: .milliseconds(20)) }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter(grant: { wanted, _ in
            try await Task.sleep(for: .seconds(3_600))
            return wanted
        })
        let context = Self.context(limiter)
        let task = Task { try await fetch(POSIXTransport(), testRequest(server.url("/wait")), context: context) }
        #expect(await eventually { limiter.askCount(.download) >= 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(limiter.grants(.download).isEmpty)
    }

    @Test func cancellationWhileTheLimiterWaitsDuringUploadEndsTheRequest() async throws {
        let server = try LoopbackServer { request in .ok("\(request.body.count)") }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter(grant: { wanted, _ in
            try await Task.sleep(for: .seconds(3_600))
            return wanted
        })
        let context = Self.context(limiter)
        let request = testRequest(server.url("/up"), method: .put, body: .bytes(Self.payload(10_000)))
        let task = Task { try await fetch(POSIXTransport(), request, context: context) }
        #expect(await eventually { limiter.askCount(.upload) >= 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(limiter.grants(.upload).isEmpty)
    }
}
