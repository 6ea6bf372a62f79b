import FoundationEssentials
import Testing
import TestSupport

/// Impairments together, as real networks have them: loss with reordering and jitter on a long link, one direction
/// worse than the other, a bottleneck that drops what its queue cannot hold, and TLS through all of it. Every case
/// runs asi and curl with the same arguments in the same run; both must save (or store) the body intact
/// (Docs/FaultMatrix.md, "Impaired links"). No speed is asserted: each run is only bounded by a generous kill limit.
@Suite("Impaired link: combined and asymmetric", .serialized, .enabled(if: LinkFixture.canRun, LinkFixture.skipReason))
struct ImpairedCombinationTests {
    /// Impairments per direction.
    struct Combination: CustomTestStringConvertible, Sendable {
        let name: String
        let c2s: String
        let s2c: String
        var testDescription: String { name }
    }

    static let combinations = [
        Combination(
            name: "loss 2 %, reordering 5 %, jitter 20 ms on a 100 ms link",
            c2s: "delay_ms=50 jitter_ms=20 loss=2 reorder=5 reorder_ms=30",
            s2c: "delay_ms=50 jitter_ms=20 loss=2 reorder=5 reorder_ms=30"),
        Combination(
            name: "only the uplink lossy (10 %)", c2s: "delay_ms=20 loss=10", s2c: "delay_ms=20"),
        Combination(
            name: "only the downlink lossy (5 %), with duplication", c2s: "delay_ms=20",
            s2c: "delay_ms=20 loss=5 dup=5"),
        Combination(
            name: "a 500 kB/s bottleneck with a 20 kB queue (tail drops)", c2s: "delay_ms=20",
            s2c: "delay_ms=20 rate=500000 queue=20000"),
        Combination(
            name: "a slow uplink (16 kB/s) under a fast downlink", c2s: "delay_ms=20 rate=16000 queue=8000",
            s2c: "delay_ms=20"),
        Combination(
            name: "everything, worse one way", c2s: "delay_ms=30 jitter_ms=10 loss=1 corrupt=1",
            s2c: "delay_ms=30 jitter_ms=10 loss=3 reorder=5 dup=3 corrupt=2"),
    ]

    static let size = 1 << 20

    @Test(arguments: combinations)
    func aDownloadArrivesIntact(_ combination: Combination) async throws {
        let body = LinkFixture.body(Self.size)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        try link.set(.c2s, combination.c2s)
        try link.set(.s2c, combination.s2c)
        for result in try await LinkFixture.both(link, [LinkFixture.url("/big.bin")], in: nginx.directory) {
            #expect(result.run.status == 0, "\(result.name): \(result.run.stderr)")
            let intact = result.saved == body
            #expect(intact, "\(result.name) saved \(result.saved.count) bytes, not the body")
        }
        let dropped = try link.stats(.c2s).dropped + link.stats(.s2c).dropped
        if combination.name.contains("loss") || combination.name.contains("queue") {
            #expect(dropped > 0, "the link dropped nothing")
        }
    }

    /// The combinations for uploads: all but the slow uplink, which would carry 1 MiB for a minute per program.
    static let uploadCombinations = combinations.filter { !$0.c2s.contains("rate=") }

    @Test(arguments: uploadCombinations)
    func anUploadIsStoredIntact(_ combination: Combination) async throws {
        let body = LinkFixture.body(Self.size, seed: 0x55)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: [:])
        let source = nginx.directory + "/source.bin"
        try Data(body).write(to: URL(filePath: source))
        try link.set(.c2s, combination.c2s)
        try link.set(.s2c, combination.s2c)
        for (name, program) in [("asi", LinkFixture.asi), ("curl", LinkFixture.curl)] {
            let run = try await LinkCommand.run(
                link.launcher(.client) + [
                    program, "-s", "-S", "-o", "/dev/null", "-T", source, LinkFixture.url("/upload/\(name).bin"),
                ], limit: .seconds(180))
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let stored = nginx.uploaded("\(name).bin")
            let intact = stored == body
            #expect(intact, "\(name): nginx stored \(stored?.count ?? 0) bytes, not the body")
        }
    }

    @Test func tlsUnderCombinedImpairmentsArrivesIntact() async throws {
        let body = LinkFixture.body(Self.size)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        try link.set(.both, "delay_ms=30 jitter_ms=10 loss=2 reorder=5 dup=2 corrupt=1")
        let arguments = LinkFixture.tlsArguments(nginx) + [LinkFixture.tlsURL("/big.bin")]
        for result in try await LinkFixture.both(link, arguments, in: nginx.directory, limit: .seconds(180)) {
            #expect(result.run.status == 0, "\(result.name): \(result.run.stderr)")
            let intact = result.saved == body
            #expect(intact, "\(result.name) saved \(result.saved.count) bytes, not the body")
        }
        #expect(try link.stats(.s2c).corrupted > 0)
    }

    @Test func aTLSUploadUnderLossIsStoredIntact() async throws {
        let body = LinkFixture.body(Self.size, seed: 0x66)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: [:])
        let source = nginx.directory + "/source.bin"
        try Data(body).write(to: URL(filePath: source))
        try link.set(.both, "delay_ms=20 loss=3")
        for (name, program) in [("asi", LinkFixture.asi), ("curl", LinkFixture.curl)] {
            let run = try await LinkCommand.run(
                link.launcher(.client) + [program, "-s", "-S", "-o", "/dev/null", "-T", source]
                    + LinkFixture.tlsArguments(nginx) + [LinkFixture.tlsURL("/upload/\(name).bin")],
                limit: .seconds(180))
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let stored = nginx.uploaded("\(name).bin")
            let intact = stored == body
            #expect(intact, "\(name): nginx stored \(stored?.count ?? 0) bytes, not the body")
        }
        #expect(try link.stats(.c2s).dropped > 0)
    }

    @Test func aTLSDownloadSurvivesAnMTUDropWhileTheWindowGrows() async throws {
        // The MTU falls to 576 after 64 KiB of the response, by the link's count: in TCP's slow start, with TLS
        // records (up to 16 KiB) cut across the smaller segments from then on.
        let body = LinkFixture.body(4 << 20)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        try link.set(.both, "delay_ms=20 rate=2000000")
        for (name, program) in [("asi", LinkFixture.asi), ("curl", LinkFixture.curl)] {
            try link.command("mtu 1500")
            let before = try link.stats(.s2c).forwarded
            let output = nginx.directory + "/\(name).out"
            let argv = link.launcher(.client) + [program, "-s", "-S", "-o", output] + LinkFixture.tlsArguments(nginx)
                + [LinkFixture.tlsURL("/big.bin")]
            async let run = LinkCommand.run(argv)
            let dropped = try await link.when(.s2c, hasForwarded: before + (64 << 10), run: [("mtu 576", .zero)])
            let finished = try await run
            #expect(dropped, "\(name): the transfer never reached 64 KiB")
            #expect(finished.status == 0, "\(name): \(finished.stderr)")
            let intact = FileManager.default.contents(atPath: output).map(Array.init) == body
            #expect(intact, "\(name): the saved file is not the body")
        }
    }
}
