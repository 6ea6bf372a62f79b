import FoundationEssentials
import HTTP2
import HTTPCore
import HTTPPipeline
import SocketTransport
import TestSupport
import Testing
import Throttle
import ThrottleTestSupport

/// The bandwidth limiter (`Throttle`) and `lowSpeedLimit` on HTTP/2 streams: a throttled download and upload over h2
/// against a real nginx, each body intact, every body byte granted and settled, and no second above 110 % of the
/// limit (only the upper bound is checked: a busy machine may be slower, never faster); and a stream the scripted
/// server trickles failing its low-speed limit.
@Suite("HTTP/2: throttle and low-speed limit", .enabled(if: TrailerNginxPeer.shouldRun), .serialized)
struct HTTP2ThrottleTests {
    @Test func aThrottledH2DownloadKeepsToTheSharedLimit() async throws {
        let rate = 100 * 1024
        try await withTrailerNginx { nginx in
            let recorder = PerSecondRecorder(try ThrottleLimiter(bytesPerSecond: rate))
            let client = Client(transport: http2Transport(), bandwidth: recorder)
            let request = h2Request(nginx.url("/payload.bin", on: .h2TLS), certificates: nginx.certificates)
            let response = try await client.send(request)
            #expect(response.head.version == .http2)
            #expect(response.body == TrailerNginxPeer.payload)
            #expect(recorder.total(.download) == TrailerNginxPeer.payload.count)
            #expect(recorder.perSecond.count >= 3, "300 KiB at 100 KiB/s took \(recorder.perSecond.count) seconds")
            recorder.expectNoSecondAbove(rate * 110 / 100)
            try await client.shutdown()
        }
    }

    @Test func aThrottledH2UploadKeepsToItsOwnLimit() async throws {
        let rate = 100 * 1024
        try await withTrailerNginx { nginx in
            let recorder = PerSecondRecorder(try ThrottleLimiter(bytesPerSecond: nil))
            let client = Client(transport: http2Transport(), bandwidth: recorder)
            var request = h2Request(nginx.url("/uploads/up.bin", on: .h2TLS), method: .put,
                                    body: .bytes(TrailerNginxPeer.payload), certificates: nginx.certificates)
            request.options.maxBandwidthPerSecond = rate
            let response = try await client.send(request)
            #expect(response.head.version == .http2)
            #expect(response.status.code == 201 || response.status.code == 204)
            #expect(nginx.uploaded("up.bin") == TrailerNginxPeer.payload)
            #expect(recorder.total(.upload) == TrailerNginxPeer.payload.count)
            #expect(recorder.perSecond.count >= 3)
            recorder.expectNoSecondAbove(rate * 110 / 100)
            try await client.shutdown()
        }
    }

    @Test(.enabled(if: H2FaultServer.shouldRun)) func aTricklingStreamFailsItsLowSpeedLimit() async throws {
        try await withPeer(start: { try H2FaultServer.start(.normal) }, stop: { $0.stop() }) { server in
            let transport = http2Transport(priorKnowledge: true)
            // The server sends 5 bytes a second; the limit asks for 100 a second over one second.
            var request = testRequest(server.url("/trickle"))
            request.options.lowSpeedLimit = LowSpeedLimit(bytesPerSecond: 100, duration: .seconds(1))
            await #expect {
                _ = try await fetch(transport, request)
            } throws: { error in
                guard let error = error as? ClientError else { return false }
                return error.code == .timedOut && error.message.contains("slower than 100 bytes per second")
            }
            try await transport.shutdown()
        }
    }
}

extension PerSecondRecorder {
    /// Expects no aligned second to hold more than `cap` bytes.
    func expectNoSecondAbove(_ cap: Int) {
        for (second, bytes) in perSecond.enumerated() {
            #expect(bytes <= cap, "second \(second) moved \(bytes) bytes, over \(cap): \(perSecond)")
        }
    }
}
