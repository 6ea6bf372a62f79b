import FoundationEssentials
import HTTPTesting
import Testing
import TestSupport

/// Transfers that stop without an error from the network: a peer that goes silent after its head, a path that
/// silently drops packets too big for it (a path-MTU blackhole), and an upload into a blackhole. Each ends at the
/// limit that covers it with curl's exit code 28, in asi as in curl; the time is bounded from below by the limit
/// and generously from above (Docs/FaultMatrix.md, "Impaired links").
@Suite("Impaired link: stalls", .serialized, .enabled(if: LinkFixture.canRun, LinkFixture.skipReason))
struct ImpairedStallTests {
    /// Checks one program's run of a stall case: exit 28, no earlier than `atLeast`, within 30 s more.
    private func expectTimedOut(_ name: String, _ run: LinkCommand, atLeast: Duration) {
        #expect(run.status == 28, "\(name): \(run.stderr)")
        #expect(run.elapsed >= atLeast, "\(name) gave up after \(run.elapsed)")
        #expect(run.elapsed < atLeast + .seconds(30), "\(name) took \(run.elapsed)")
    }

    /// A server in the server namespace that sends a head announcing 1 MB, 4 KiB of the body, and then nothing,
    /// with the connection left open: TCP is healthy, the peer is not.
    private func silentPeer(_ link: ImpairedLink) throws -> LoopbackServer {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n".utf8)
        let start = LinkFixture.body(4096)
        return try link.onServerSide {
            try LoopbackServer(host: ImpairedLink.serverAddress) { _ in
                LoopbackResponse(actions: [.write(head), .write(start), .stall])
            }
        }
    }

    @Test(arguments: [(["-y", "2"], 2), (["-m", "3"], 3), (["--speed-limit", "1000", "--speed-time", "2"], 2)])
    func aPeerSilentAfterTheHeadEndsAtTheLimit(_ flags: [String], seconds: Int) async throws {
        let link = try ImpairedLink()
        let server = try silentPeer(link)
        try link.set(.both, "delay_ms=20")
        let directory = try makeTemporaryDirectory(prefix: "asikit-link-silent")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = "http://\(ImpairedLink.serverAddress):\(server.port)/silent"
        for result in try await LinkFixture.both(link, flags + [url], in: directory) {
            expectTimedOut(result.name, result.run, atLeast: .seconds(Int64(seconds)))
        }
        withExtendedLifetime(server) {}
    }

    @Test func aPathMTUBlackholeMidTransferEndsAtTheInactivityTimeout() async throws {
        // After 1 MiB, a hop drops every packet over 1,200 bytes and says nothing (no ICMP "fragmentation
        // needed"). The sender keeps resending its full-sized segments and Linux's default (tcp_mtu_probing 0)
        // never looks for a smaller size: the transfer stalls, and the client's inactivity limit ends it.
        let body = LinkFixture.body(4 << 20)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        try link.set(.both, "delay_ms=10 rate=2000000")
        for (name, program) in [("asi", LinkFixture.asi), ("curl", LinkFixture.curl)] {
            try link.set(.s2c, "max_packet=0")
            let before = try link.stats(.s2c).forwarded
            let output = nginx.directory + "/\(name).out"
            let argv =
                link.launcher(.client) + [program, "-s", "-S", "-y", "3", "-o", output, LinkFixture.url("/big.bin")]
            async let run = LinkCommand.run(argv)
            let cut = try await link.when(
                .s2c, hasForwarded: before + (1 << 20), run: [("set s2c max_packet=1200", .zero)])
            let finished = try await run
            #expect(cut, "\(name): the transfer never reached 1 MiB")
            expectTimedOut(name, finished, atLeast: .seconds(3))
        }
    }

    @Test func anUploadIntoABlackholeEndsAtTheInactivityTimeout() async throws {
        let body = LinkFixture.body(4 << 20, seed: 0x44)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: [:])
        let source = nginx.directory + "/source.bin"
        try Data(body).write(to: URL(filePath: source))
        try link.set(.c2s, "delay_ms=10 rate=2000000")
        for (name, program) in [("asi", LinkFixture.asi), ("curl", LinkFixture.curl)] {
            let before = try link.stats(.c2s)
            try link.set(.c2s, "blackhole_after=\(before.payload + (1 << 20))")
            let run = try await LinkCommand.run(
                link.launcher(.client) + [
                    program, "-s", "-S", "-y", "2", "-o", "/dev/null", "-T", source,
                    LinkFixture.url("/upload/\(name).bin"),
                ])
            try link.set(.c2s, "blackhole_after=-1")
            expectTimedOut(name, run, atLeast: .seconds(2))
            #expect(nginx.uploaded("\(name).bin") == nil, "\(name): nginx stored a cut-off upload")
        }
    }

    @Test func aConnectWhileTheLinkIsDownFailsAtOnceWithExit7() async throws {
        // Both devices down: the client's kernel has no route to the server, so connect fails at once with
        // "network unreachable" (no timeout is involved: the limits below are far away). curl's 7; asi's too.
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["small.txt": Array("ok".utf8)])
        try link.command("link down")
        let flags = ["--connect-timeout", "60", "-m", "120", LinkFixture.url("/small.txt")]
        for result in try await LinkFixture.both(link, flags, in: nginx.directory) {
            #expect(result.run.status == 7, "\(result.name): \(result.run.stderr)")
            #expect(result.run.elapsed < .seconds(30), "\(result.name) took \(result.run.elapsed)")
        }
        try link.command("link up")
    }
}
