import FoundationEssentials
import HTTPCore
import HTTPTesting
import Synchronization
import Testing
import TestSupport

/// Many requests over a lossy long link, and a throttled transfer measured by the link (Docs/FaultMatrix.md,
/// "Impaired links").
@Suite("Impaired link: queue and throttle", .serialized, .enabled(if: LinkFixture.canRun, LinkFixture.skipReason))
struct ImpairedQueueAndThrottleTests {
    @Test func aHundredRequestsOverALossy100MillisecondLinkAllComplete() async throws {
        // The loopback server, made inside the server namespace, counts what reached it.
        let link = try ImpairedLink()
        let hits = HitCounter()
        let body = Array("queued\n".utf8)
        let server = try link.onServerSide {
            try LoopbackServer(host: ImpairedLink.serverAddress) { _ in
                hits.count.withLock { $0 += 1 }
                return .ok(bytes: body)
            }
        }
        try link.set(.both, "delay_ms=50 loss=2")
        let urls = (0..<100).map { "http://\(ImpairedLink.serverAddress):\(server.port)/item/\($0)" }
        for (name, argv) in [
            ("asi", [LinkFixture.asi, "-s", "-S", "--parallel", "--parallel-max", "6"] + urls),
            ("curl", [LinkFixture.curl, "-s", "-S", "-Z", "--parallel-max", "6"] + urls),
        ] {
            hits.count.withLock { $0 = 0 }
            let run = try await LinkCommand.run(link.launcher(.client) + argv, limit: .seconds(240))
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let all = LargeBytes.equal(run.stdout, LargeBytes.repeated(body, times: 100))
            #expect(all, "\(name): \(run.stdout.count) bytes, not 100 bodies")
            #expect(hits.count.withLock { $0 } >= 100, "\(name)")
        }
        withExtendedLifetime(server) {}
        #expect(try link.stats(.c2s).dropped + link.stats(.s2c).dropped > 0, "the link lost nothing")
    }

    /// The rate by the link's own clock between two points of the transfer: the link stamps the moment its
    /// forwarded payload crosses each 16 KiB, so the test's scheduling does not enter the figure. The window
    /// starts after the first quarter (once the receive buffer's initial burst has passed) and ends at 90 %
    /// (before the sender's last window drains into the buffer).
    fileprivate func linkRate(_ link: ImpairedLink, size: Int, _ direction: ImpairedLink.Direction = .s2c) throws
        -> Double?
    {
        let start = size / 4
        let end = size * 9 / 10
        guard let t0 = try link.crossing(direction, bytes: start), let t1 = try link.crossing(direction, bytes: end)
        else {
            return nil
        }
        return Double(end - start) / (t1 - t0).seconds
    }

    /// One throttled download by `program` over a fresh 100 ms link, and its rate by the link's clock.
    private func throttledRate(_ program: String, rate: Int, body: [UInt8]) async throws -> Double? {
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        try link.set(.both, "delay_ms=50")
        let run = try await LinkCommand.run(
            link.launcher(.client) + [program, "-s", "-S", "-o", nginx.directory + "/out", "--limit-rate", "\(rate)",
                                      LinkFixture.url("/big.bin")])
        #expect(run.status == 0, "\(program): \(run.stderr)")
        return try linkRate(link, size: body.count)
    }

    @Test func aThrottledDownloadOverA100MillisecondLinkKeepsItsRateWithin5Percent() async throws {
        let rate = 200_000
        let body = LinkFixture.body(1_600_000)
        // A limiter can only be slower than its rate when its process gets no CPU (the whole suite on two busy
        // cores once held asi to 166 kB/s); it must never be faster. So every run must stay under rate + 5 %, and
        // one of up to three must come within 5 % from below: a limiter that is wrong is wrong every time.
        var rates: [Double] = []
        for _ in 0..<3 {
            let measured = try #require(try await throttledRate(LinkFixture.asi, rate: rate, body: body))
            rates.append(measured)
            #expect(measured < Double(rate) * 1.05, "asi ran ahead of its limit: \(measured) B/s for \(rate)")
            if abs(measured - Double(rate)) / Double(rate) < 0.05 { break }
        }
        let curlRate = try #require(try await throttledRate(LinkFixture.curl, rate: rate, body: body))
        print("throttle over a 100 ms link: asi \(rates.map { Int($0) }) B/s, curl \(Int(curlRate)) B/s, limit \(rate)")
        #expect(rates.contains { abs($0 - Double(rate)) / Double(rate) < 0.05 }, "asi: \(rates) B/s for \(rate)")
        // curl 7.88's limiter runs ahead of the limit in mid-transfer (221–239 kB/s here for 200 kB/s, once 317 kB/s
        // while the whole suite ran, and it catches up at the end): its figure is recorded, and only checked to be
        // throttled at all (unthrottled, this link carries the body at several MB/s).
        #expect(curlRate < Double(rate) * 2.5, "curl: \(curlRate) B/s for \(rate)")
    }
}

extension ImpairedQueueAndThrottleTests {
    /// One throttled upload (`-T`, nginx's DAV `PUT`) by `program` over a fresh 100 ms link, and its rate by the
    /// link's clock in the client-to-server direction; the stored file must be the body.
    private func throttledUploadRate(_ program: String, rate: Int, body: [UInt8]) async throws -> Double? {
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: [:])
        let source = nginx.directory + "/source.bin"
        try Data(body).write(to: URL(filePath: source))
        try link.set(.both, "delay_ms=50")
        let run = try await LinkCommand.run(
            link.launcher(.client) + [
                program, "-s", "-S", "-o", "/dev/null", "--limit-rate", "\(rate)", "-T", source,
                LinkFixture.url("/upload/up.bin"),
            ])
        #expect(run.status == 0, "\(program): \(run.stderr)")
        let intact = nginx.uploaded("up.bin") == body
        #expect(intact, "\(program): nginx did not store the body")
        return try linkRate(link, size: body.count, .c2s)
    }

    @Test func aThrottledUploadOverA100MillisecondLinkKeepsItsRateWithin5Percent() async throws {
        // The same rule as the download: never above rate + 5 %, within 5 % in one of up to three runs.
        let rate = 200_000
        let body = LinkFixture.body(1_600_000, seed: 0x21)
        var rates: [Double] = []
        for _ in 0..<3 {
            let measured = try #require(try await throttledUploadRate(LinkFixture.asi, rate: rate, body: body))
            rates.append(measured)
            #expect(measured < Double(rate) * 1.05, "asi ran ahead of its limit: \(measured) B/s for \(rate)")
            if abs(measured - Double(rate)) / Double(rate) < 0.05 { break }
        }
        let curlRate = try #require(try await throttledUploadRate(LinkFixture.curl, rate: rate, body: body))
        print("throttled upload over a 100 ms link: asi \(rates.map { Int($0) }) B/s, curl \(Int(curlRate)) B/s")
        #expect(rates.contains { abs($0 - Double(rate)) / Double(rate) < 0.05 }, "asi: \(rates) B/s for \(rate)")
        #expect(curlRate < Double(rate) * 2.5, "curl: \(curlRate) B/s for \(rate)")
    }
}

/// Requests the loopback server answered, counted on its connection threads.
final class HitCounter: Sendable {
    let count = Mutex(0)
}
