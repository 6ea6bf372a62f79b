import FoundationEssentials
import Testing
import TestSupport

/// A link that stops carrying packets ends the transfer at the limit that covers it, with curl's exit code 28,
/// in asi as in curl (Docs/FaultMatrix.md, "Impaired links"). Each run's time is bounded from below by the limit
/// (it never fires early) and from above generously (it fires, on a busy machine too); nothing asserts the
/// scheduling in between.
@Suite("Impaired link: timeouts", .serialized, .enabled(if: LinkFixture.canRun, LinkFixture.skipReason))
struct ImpairedTimeoutTests {
    static let size = 4 << 20

    /// A blackhole that opens after 1 MiB of the response, by the link's count: no byte arrives after it. asi and
    /// curl each get their own blackhole, counted from where the link stood when they started.
    private func blackholedMidTransfer(_ flags: [String], atLeast: Duration) async throws {
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": LinkFixture.body(Self.size)])
        try link.set(.s2c, "delay_ms=10 rate=2000000")
        for (name, program) in [("asi", LinkFixture.asi), ("curl", LinkFixture.curl)] {
            let before = try link.stats(.s2c)
            try link.set(.s2c, "blackhole_after=\(before.payload + (1 << 20))")
            let output = nginx.directory + "/\(name).out"
            let run = try await LinkCommand.run(
                link.launcher(.client) + [program, "-s", "-S", "-o", output] + flags + [LinkFixture.url("/big.bin")])
            try link.set(.s2c, "blackhole_after=-1")
            let saved = FileManager.default.contents(atPath: output)?.count ?? 0
            let carried = try link.stats(.s2c).forwarded - before.forwarded
            #expect(run.status == 28, "\(name): \(run.stderr)")
            #expect(carried >= 1 << 20 && carried < Self.size, "the link carried \(carried) bytes to \(name)")
            // A failed asi -o leaves nothing at the destination (its temporary file is removed, as for a full
            // disk); curl keeps what came.
            #expect(name == "asi" ? saved == 0 : saved >= 1 << 19 && saved < Self.size, "\(name) saved \(saved)")
            #expect(run.elapsed >= atLeast, "\(name) gave up after \(run.elapsed)")
            #expect(run.elapsed < atLeast + .seconds(30), "\(name) took \(run.elapsed)")
        }
    }

    @Test func aBlackholeMidTransferEndsAtTheInactivityTimeout() async throws {
        // asi's -y alone is ASIKit's request timeout (nothing sent or received for that long); curl's is
        // --speed-limit 1 for that long: the same outcome when nothing arrives.
        try await blackholedMidTransfer(["-y", "2"], atLeast: .seconds(2))
    }

    @Test func aBlackholeMidTransferEndsAtTheMaxTime() async throws {
        try await blackholedMidTransfer(["-m", "3"], atLeast: .seconds(3))
    }

    @Test func aBlackholeMidTransferEndsAtTheLowSpeedLimit() async throws {
        // Nothing arrives after the blackhole: below 50,000 bytes a second for 2 s, both give up (asi's -Y
        // without -y keeps curl's meaning; its inactivity timeout is not what ends it here).
        try await blackholedMidTransfer(["--speed-limit", "50000", "--speed-time", "2"], atLeast: .seconds(2))
    }

    @Test func aTrickleBelowTheSpeedLimitEndsAtTheSpeedTime() async throws {
        // 3,000 bytes a second keep arriving, so the inactivity timeout never fires; below --speed-limit 20000
        // for --speed-time 2 s, both give up.
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": LinkFixture.body(Self.size)])
        try link.set(.s2c, "delay_ms=10 rate=3000 queue=6000")
        let flags = ["--speed-limit", "20000", "--speed-time", "2", LinkFixture.url("/big.bin")]
        for result in try await LinkFixture.both(link, flags, in: nginx.directory) {
            #expect(result.run.status == 28, "\(result.name): \(result.run.stderr)")
            #expect(result.run.elapsed >= .seconds(2), "\(result.name) gave up after \(result.run.elapsed)")
            #expect(result.run.elapsed < .seconds(40), "\(result.name) took \(result.run.elapsed)")
        }
        #expect(try link.stats(.s2c).forwarded > 0, "the trickle carried nothing")
    }

    @Test func aTrickleAboveTheSpeedLimitCompletes() async throws {
        // The same link with a limit below its rate: the low-speed check does not fire on a slow but live link.
        let body = LinkFixture.body(40_000)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["small.bin": body])
        try link.set(.s2c, "delay_ms=10 rate=30000")
        let flags = ["--speed-limit", "5000", "--speed-time", "1", LinkFixture.url("/small.bin")]
        for result in try await LinkFixture.both(link, flags, in: nginx.directory) {
            #expect(result.run.status == 0, "\(result.name): \(result.run.stderr)")
            let intact = result.saved == body
            #expect(intact, "\(result.name) saved \(result.saved.count) bytes, not the body")
        }
    }

    @Test func aConnectToABlackholedAddressEndsAtTheConnectTimeout() async throws {
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: [:])
        let url = "http://\(ImpairedLink.blackholedAddress)/"
        for result in try await LinkFixture.both(link, ["--connect-timeout", "2", url], in: nginx.directory) {
            #expect(result.run.status == 28, "\(result.name): \(result.run.stderr)")
            #expect(result.run.elapsed >= .seconds(2), "\(result.name) gave up after \(result.run.elapsed)")
            #expect(result.run.elapsed < .seconds(30), "\(result.name) took \(result.run.elapsed)")
        }
        #expect(try link.stats(.c2s).packets > 0, "no SYN reached the link")
    }
}
