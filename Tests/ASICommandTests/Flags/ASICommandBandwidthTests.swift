import FoundationEssentials
import TestSupport
import Testing

/// `--limit-rate`, `--max-bandwidth` and `-v`'s average bandwidth against a real nginx. A limited transfer is never
/// faster than its bytes allow (less the limiter's burst of a twentieth of a second); slower is never a failure.
@Suite("asi: bandwidth limits", .enabled(if: NginxPeer.shouldRun))
struct ASICommandBandwidthTests {
    static let rate = 64 * 1024
    static let body = DataPath.bytes(96 * 1024)

    /// The least time `bytes` may take at `rate`: `bytes / rate`, less the burst the limiter allows.
    static func least(_ bytes: Int, at rate: Int) -> Duration {
        .milliseconds((bytes - rate / 20) * 1000 / rate)
    }

    /// The `N` of `* Average bandwidth: N bytes/s` on stderr.
    static func average(in stderr: String) -> Int? {
        let prefix = "* Average bandwidth: "
        // Split on any line break: the heads end in CRLF, a single Character.
        guard let line = stderr.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix(prefix) }) else {
            return nil
        }
        return Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
    }

    static func timed(_ arguments: [String]) async throws -> (ASICommandRun, Duration) {
        let started = ContinuousClock.now
        let run = try await ASICommandRun.run(arguments)
        return (run, ContinuousClock.now - started)
    }

    @Test(arguments: ["1.5M", "10KB", "-1", "K", "5T", "99999999999G", ""])
    func aMalformedRateIsAUsageError(rate: String) async throws {
        for flag in ["--limit-rate", "--max-bandwidth"] {
            let run = try await ASICommandRun.run([flag, rate, "http://127.0.0.1:9/"])
            #expect(run.status == 2, "\(flag) \(rate): \(run.stderr)")
            #expect(run.stderr.contains(flag), "\(run.stderr)")
        }
    }

    @Test func limitRateHoldsOneDownloadAndVerbosePrintsTheAverage() async throws {
        try await withDataNginx(files: ["body.bin": Self.body]) { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let (run, took) = try await Self.timed([
                "-v", "--limit-rate", "64K", "-o", directory + "/out", nginx.url("/files/body.bin").absoluteString,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(LargeBytes.equal(DataPath.read(directory + "/out"), Self.body))
            #expect(took >= Self.least(Self.body.count, at: Self.rate), "took \(took)")
            let average = Self.average(in: run.stderr)
            #expect(average != nil, "\(run.stderr)")
            #expect((average ?? 0) <= Self.rate * 110 / 100, "average \(average ?? -1)")
        }
    }

    @Test func maxBandwidthIsSharedByParallelTransfers() async throws {
        let half = Array(Self.body.prefix(Self.body.count / 2))
        try await withDataNginx(files: ["a.bin": half, "b.bin": half]) { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let (run, took) = try await Self.timed([
                "-Z", "--max-bandwidth", "\(Self.rate)",
                "-o", directory + "/a", nginx.url("/files/a.bin").absoluteString,
                "-o", directory + "/b", nginx.url("/files/b.bin").absoluteString,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(LargeBytes.equal(DataPath.read(directory + "/a"), half))
            #expect(LargeBytes.equal(DataPath.read(directory + "/b"), half))
            #expect(took >= Self.least(Self.body.count, at: Self.rate), "two halves sharing the budget took \(took)")
        }
    }

    @Test func limitRateHoldsAnUploadThatArrivesIntact() async throws {
        try await withDataNginx { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try DataPath.write(Self.body, to: directory + "/up.bin")
            let (run, took) = try await Self.timed([
                "--limit-rate", "64k", "-T", directory + "/up.bin", nginx.url("/dav/up.bin").absoluteString,
                "-w", "%{http_code}",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.output.hasSuffix("201"), "\(run.output)")
            #expect(DataPath.read(nginx.documentPath("dav/up.bin")) == Self.body)
            #expect(took >= Self.least(Self.body.count, at: Self.rate), "took \(took)")
        }
    }

    @Test func zeroIsNoLimitAndVerboseAlwaysPrintsTheAverage() async throws {
        try await withDataNginx(files: ["body.bin": Self.body]) { nginx in
            let run = try await ASICommandRun.run([
                "-v", "--limit-rate", "0", "--max-bandwidth", "0B", nginx.url("/files/body.bin").absoluteString,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(LargeBytes.equal(run.stdout, Self.body))
            #expect(Self.average(in: run.stderr) != nil, "\(run.stderr)")
        }
    }
}
