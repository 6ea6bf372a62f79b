import FoundationEssentials
import HTTPCore
import HTTPPipeline
import SocketTransport
import TestSupport
import Testing
import Throttle
import ThrottleTestSupport

/// The limiter on real transfers with nginx on 127.0.0.1: no second runs above 110 % of the limit once a transfer
/// is under way, for one download, for downloads sharing the budget, and for an upload under its own limit; every
/// body arrives intact. Only the upper bound is checked: a busy machine may be slower, never faster.
@Suite("Throttle: nginx", .enabled(if: NginxPeer.shouldRun), .serialized)
struct ThrottleNginxTests {
    static func payload(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
    }

    /// Checks that no second, aligned or sliding, holds more than 110 % of `rate`.
    static func expectNoSecondAbove110Percent(_ recorder: PerSecondRecorder, rate: Int, _ what: String) {
        let cap = rate * 110 / 100
        let perSecond = recorder.perSecond
        let summary = "\(recorder.total) bytes at \(rate) bytes/s, per second \(perSecond)"
        print("\(what): \(summary), busiest sliding second \(recorder.busiestSecond)")
        for (second, bytes) in perSecond.enumerated() {
            #expect(bytes <= cap, "\(what): second \(second) moved \(bytes) bytes, over 110 % of \(rate)")
        }
        #expect(recorder.busiestSecond <= cap, "\(what): a sliding second moved \(recorder.busiestSecond) bytes")
    }

    @Test func aTenSecondDownloadRunsNoSecondAbove110PercentOfTheLimit() async throws {
        let rate = 200 * 1024
        let payload = Self.payload(rate * 10)
        try await withDataNginx(files: ["ten.bin": payload]) { nginx in
            let recorder = PerSecondRecorder(try ThrottleLimiter(bytesPerSecond: rate))
            let client = Client(transport: .posix(), bandwidth: recorder)
            var request = Request(url: nginx.url("/files/ten.bin"))
            request.options.timeout = generousTimeout
            let response = try await client.send(request)
            #expect(response.status == .ok)
            #expect(response.body == payload)
            #expect(recorder.total == payload.count)
            #expect(recorder.perSecond.count >= 10, "10 s of budget took \(recorder.perSecond.count) seconds")
            Self.expectNoSecondAbove110Percent(recorder, rate: rate, "one download")
            let average = client.averageBandwidthPerSecond
            #expect(average > 0 && average <= rate * 110 / 100, "average \(average)")
            try await client.shutdown()
        }
    }

    @Test func parallelDownloadsShareTheBudgetAndNoSecondRunsAbove110Percent() async throws {
        let rate = 100 * 1024
        let payload = Self.payload(rate * 3 / 2)
        try await withDataNginx(files: ["a.bin": payload, "b.bin": payload]) { nginx in
            let recorder = PerSecondRecorder(try ThrottleLimiter(bytesPerSecond: rate))
            let client = Client(transport: .posix(), bandwidth: recorder)
            let (a, b) = (Request(url: nginx.url("/files/a.bin")), Request(url: nginx.url("/files/b.bin")))
            async let first = client.send(a)
            async let second = client.send(b)
            let bodies = try await [first.body, second.body]
            #expect(bodies == [payload, payload])
            #expect(recorder.perSecond.count >= 3)
            Self.expectNoSecondAbove110Percent(recorder, rate: rate, "two downloads sharing the budget")
            try await client.shutdown()
        }
    }

    @Test func aTLSDownloadIsReadThroughSmallGrantsAndArrivesIntact() async throws {
        try await withNginx { nginx in
            // 2,048 bytes/s: slices of 51 bytes, so the TLS records are read in many small pieces.
            let recorder = PerSecondRecorder(try ThrottleLimiter(bytesPerSecond: nil))
            let client = Client(transport: .posix(), bandwidth: recorder)
            var request = Request(url: nginx.url("/1k.bin", on: .tls))
            request.options.tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
            request.options.maxBandwidthPerSecond = 2_048
            let response = try await client.send(request)
            #expect(response.status == .ok)
            #expect(response.body == NginxPeer.oneKiB)
            #expect(recorder.total == NginxPeer.oneKiB.count)
            Self.expectNoSecondAbove110Percent(recorder, rate: 2_048, "one TLS download with its own limit")
            try await client.shutdown()
        }
    }

    @Test func anUploadUnderItsOwnLimitRunsNoSecondAbove110PercentAndArrivesIntact() async throws {
        let rate = 64 * 1024
        let payload = Self.payload(rate * 3)
        try await withDataNginx { nginx in
            let recorder = PerSecondRecorder(try ThrottleLimiter(bytesPerSecond: nil))
            let client = Client(transport: .posix(), bandwidth: recorder)
            var request = Request(url: nginx.url("/dav/up.bin"), method: .put, body: .bytes(payload))
            request.options.maxBandwidthPerSecond = rate
            let response = try await client.send(request)
            #expect(response.status.code == 201 || response.status.code == 204)
            let stored = FileManager.default.contents(atPath: nginx.documentPath("dav/up.bin")).map { [UInt8]($0) }
            #expect(stored == payload)
            #expect(recorder.perSecond.count >= 3)
            Self.expectNoSecondAbove110Percent(recorder, rate: rate, "one upload with its own limit")
            try await client.shutdown()
        }
    }
}
