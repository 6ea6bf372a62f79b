import FoundationEssentials
import Testing
import TestSupport

/// Large downloads and uploads over an impaired link arrive intact, through asi and curl (Docs/FaultMatrix.md,
/// "Impaired links"). TCP repairs loss, reordering, duplication and corruption (a TUN device has no checksum
/// offload, so a flipped bit fails TCP's checksum and the segment is sent again); the tests show that nothing
/// above TCP is confused by the gaps, stalls and bursts this makes.
@Suite("Impaired link: transfers", .serialized, .enabled(if: LinkFixture.canRun, LinkFixture.skipReason))
struct ImpairedTransferTests {
    /// An impairment and what it applies in both directions.
    struct Impairment: CustomTestStringConvertible, Sendable {
        let name: String
        let settings: String
        var testDescription: String { name }
    }

    static let impairments = [
        Impairment(name: "delay 40 ms, jitter 10 ms", settings: "delay_ms=40 jitter_ms=10"),
        Impairment(name: "loss 3 %", settings: "delay_ms=5 loss=3"),
        Impairment(name: "reordering 10 %", settings: "delay_ms=5 reorder=10 reorder_ms=15"),
        Impairment(name: "duplication 10 %", settings: "delay_ms=5 dup=10"),
        Impairment(name: "corruption 3 %", settings: "delay_ms=5 corrupt=3"),
        Impairment(
            name: "all at once", settings: "delay_ms=20 jitter_ms=5 loss=1 reorder=3 dup=2 corrupt=1"),
    ]

    static let size = 3 << 20

    @Test(arguments: impairments)
    func aLargeDownloadArrivesIntact(_ impairment: Impairment) async throws {
        let body = LinkFixture.body(Self.size)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        try link.set(.both, impairment.settings)
        for result in try await LinkFixture.both(link, [LinkFixture.url("/big.bin")], in: nginx.directory) {
            #expect(result.run.status == 0, "\(result.name): \(result.run.stderr)")
            let intact = result.saved == body
            #expect(intact, "\(result.name) saved \(result.saved.count) bytes, not the body")
        }
        let stats = try link.stats(.s2c)
        // The impairment really happened: the link shows its work in the server-to-client direction.
        if impairment.settings.contains("loss") { #expect(stats.dropped > 0) }
        if impairment.settings.contains("dup") { #expect(stats.duplicated > 0) }
        if impairment.settings.contains("corrupt") { #expect(stats.corrupted > 0) }
        if impairment.settings.contains("reorder") { #expect(stats.reordered > 0) }
    }

    @Test(arguments: impairments)
    func aLargeUploadArrivesIntact(_ impairment: Impairment) async throws {
        let body = LinkFixture.body(Self.size, seed: 0x77)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: [:])
        let source = nginx.directory + "/source.bin"
        try Data(body).write(to: URL(filePath: source))
        try link.set(.both, impairment.settings)
        for name in ["asi", "curl"] {
            let run = try await LinkCommand.run(
                link.launcher(.client) + [
                    name == "asi" ? LinkFixture.asi : LinkFixture.curl, "-s", "-S", "-o", "/dev/null", "-T", source,
                    LinkFixture.url("/upload/\(name).bin"),
                ])
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let stored = nginx.uploaded("\(name).bin")
            let intact = stored == body
            #expect(intact, "\(name): nginx stored \(stored?.count ?? 0) bytes, not the body")
        }
        let stats = try link.stats(.c2s)
        if impairment.settings.contains("loss") { #expect(stats.dropped > 0) }
        if impairment.settings.contains("corrupt") { #expect(stats.corrupted > 0) }
    }

    @Test func tlsUnderLossArrivesIntact() async throws {
        let body = LinkFixture.body(1 << 20)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        try link.set(.both, "delay_ms=20 loss=3")
        let arguments = LinkFixture.tlsArguments(nginx) + [LinkFixture.tlsURL("/big.bin")]
        for result in try await LinkFixture.both(link, arguments, in: nginx.directory) {
            #expect(result.run.status == 0, "\(result.name): \(result.run.stderr)")
            let intact = result.saved == body
            #expect(intact, "\(result.name) saved \(result.saved.count) bytes, not the body")
        }
        #expect(try link.stats(.s2c).dropped > 0)
    }

    @Test func aDownloadSurvivesAnMTUDropMidTransfer() async throws {
        let body = LinkFixture.body(4 << 20)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        // 2 MB/s so the transfer lasts about two seconds and the drop lands in its middle, by the link's count.
        try link.set(.both, "delay_ms=10 rate=2000000")
        for program in [LinkFixture.asi, LinkFixture.curl] {
            try link.command("mtu 1500")
            let before = try link.stats(.s2c).forwarded
            let output = nginx.directory + "/mtu.out"
            let argv = link.launcher(.client) + [program, "-s", "-S", "-o", output, LinkFixture.url("/big.bin")]
            async let run = LinkCommand.run(argv)
            // The drop is sent by a thread of the link's own the moment the count is reached (a busy cooperative
            // pool could otherwise send it after the transfer ended).
            let midway = try await link.when(.s2c, hasForwarded: before + (1 << 20), run: [("mtu 576", .zero)])
            // Packets the server's kernel queued on its device before the drop may still arrive at full size: once
            // 128 KiB more have passed, the counter of the largest packet starts again (a second `mtu 576` does it).
            _ = try await link.when(
                .s2c, hasForwarded: before + (1 << 20) + (128 << 10), run: [("mtu 576", .zero)])
            let afterReset = try link.stats(.s2c).forwarded
            let finished = try await run
            // The server's kernel really sent smaller packets after the drop (and resent what was lost in them).
            let stats = try link.stats(.s2c)
            if stats.forwarded - afterReset >= 64 << 10 {
                #expect(stats.largest <= 576, "\(program): a \(stats.largest)-byte packet after the MTU dropped to 576")
            } else {
                print("\(program): the transfer ended before the MTU counter restarted; the packet size is not checked")
            }
            #expect(midway, "\(program): the transfer never reached 1 MiB")
            #expect(finished.status == 0, "\(program): \(finished.stderr)")
            let intact = FileManager.default.contents(atPath: output).map(Array.init) == body
            #expect(intact, "\(program): the saved file is not the body")
        }
    }

    @Test func aDownloadSurvivesATwoSecondLinkFlap() async throws {
        let body = LinkFixture.body(4 << 20)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        try link.set(.both, "delay_ms=10 rate=2000000")
        for program in [LinkFixture.asi, LinkFixture.curl] {
            let before = try link.stats(.s2c).forwarded
            let output = nginx.directory + "/flap.out"
            // Inactivity limits well above the flap: TCP's retransmission carries the transfer across it.
            let argv =
                link.launcher(.client) + [program, "-s", "-S", "-y", "30", "-o", output, LinkFixture.url("/big.bin")]
            async let run = LinkCommand.run(argv)
            // Down and up by a thread of the link's own: the flap lasts 2 s however busy the machine is.
            let midway = try await link.when(
                .s2c, hasForwarded: before + (1 << 20), run: [("link down", .seconds(2)), ("link up", .zero)])
            let finished = try await run
            #expect(midway, "\(program): the transfer never reached 1 MiB")
            #expect(finished.status == 0, "\(program): \(finished.stderr)")
            let intact = FileManager.default.contents(atPath: output).map(Array.init) == body
            #expect(intact, "\(program): the saved file is not the body")
        }
    }
}
