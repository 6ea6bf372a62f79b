import FoundationEssentials
import HTTPCore
import HTTPPipeline
import SocketTransport
import Testing
import TestSupport

/// A link that goes away mid-download for longer than the inactivity limit: the attempt ends with `timedOut` (curl's
/// 28), and the retry policy sends it again once the link is back, resuming the partial file (`-C -`). asi and curl
/// in the same run, and the library in process (Docs/FaultMatrix.md, "Impaired links").
///
/// The outage starts once 1 MiB of the response has passed (by the link's count) and lasts 10 s, timed on a thread
/// of its own. asi's `-y 2` is an inactivity timeout: the attempt ends 2 s into the outage. curl's `-y 2` is
/// `--speed-limit 1` over an average of its last 5 s, so it ends about 7 s in (a 3 s outage passes under it: TCP's
/// retransmission carries curl across, where asi gives up and retries). `--retry-delay 12` puts both retries after
/// the link is back, however loaded the machine is (a retry that met downed devices would fail at once with
/// "network unreachable", which curl does not retry without `--retry-all-errors`).
@Suite("Impaired link: flaps resumed by a retry", .serialized, .enabled(if: LinkFixture.canRun, LinkFixture.skipReason))
struct ImpairedRetryTests {
    /// How the link goes away.
    struct Outage: CustomTestStringConvertible, Sendable {
        let name: String
        let down: String
        let up: String
        var testDescription: String { name }
    }

    static let outages = [
        // `ip link set down` on both devices (SIOCSIFFLAGS): the routes go, the sockets stay.
        Outage(name: "both devices down (a flap)", down: "link down", up: "link up"),
        // The devices stay up and every packet vanishes on the way: a path that fails somewhere in the middle.
        Outage(name: "the path drops everything", down: "set both blackhole=1", up: "set both blackhole=0"),
    ]

    static let size = 6 << 20

    /// The nginx log's lines for the requests a program made (by its `User-Agent`).
    private func requests(by program: String, in nginx: LinkNginx) -> [String] {
        nginx.accessLog().filter { $0.contains(program == "asi" ? "\"asi (" : "\"curl/") }
    }

    @Test(arguments: outages)
    func aDownloadCutByAnOutageIsResumedByARetry(_ outage: Outage) async throws {
        let body = LinkFixture.body(Self.size)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        try link.set(.both, "delay_ms=10 rate=1500000")
        for (name, program) in [("asi", LinkFixture.asi), ("curl", LinkFixture.curl)] {
            let before = try link.stats(.s2c).forwarded
            let output = nginx.directory + "/\(name).out"
            let argv = link.launcher(.client) + [
                program, "-s", "-S", "-C", "-", "--retry", "3", "--retry-delay", "12", "-y", "2", "-o", output,
                LinkFixture.url("/big.bin"),
            ]
            async let run = LinkCommand.run(argv, limit: .seconds(150))
            let cut = try await link.when(
                .s2c, hasForwarded: before + (1 << 20), run: [(outage.down, .seconds(10)), (outage.up, .zero)])
            let finished = try await run
            #expect(cut, "\(name): the transfer never reached 1 MiB")
            #expect(finished.status == 0, "\(name): \(finished.stderr)")
            let saved = FileManager.default.contents(atPath: output).map(Array.init) ?? []
            let intact = saved == body
            #expect(intact, "\(name) saved \(saved.count) bytes, not the body")
            // At least the 12 s wait; bounded by the kill limit.
            #expect(finished.elapsed >= .seconds(12), "\(name) finished after \(finished.elapsed): no retry?")
        }
        // The retry really happened: each program's last request is the one that completed. asi asks for the rest
        // of its partial file (206 from where it stopped); curl 7.88 throws the attempt's bytes away and asks
        // again from where it started (-C - of an empty file: the whole body).
        let asi = requests(by: "asi", in: nginx)
        let curl = requests(by: "curl", in: nginx)
        #expect(asi.last?.hasPrefix("206 \"bytes=") == true, "asi's requests: \(asi)")
        #expect(curl.last?.hasPrefix("200 ") == true || curl.last?.hasPrefix("206 ") == true, "curl: \(curl)")
    }

    @Test func aFlapDuringTheTLSHandshakeIsRetriedAfterTheConnectTimeout() async throws {
        // 100 ms each way; the link goes down for 10 s as soon as the client's first bytes (its ClientHello) have
        // crossed it, so the server's answer is lost and the handshake stalls. `--connect-timeout 3` covers the
        // TLS handshake in both (asi's and curl's); the retry, 12 s later, finds the link back.
        let body = LinkFixture.body(256 << 10)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["small.bin": body])
        try link.set(.both, "delay_ms=100")
        for (name, program) in [("asi", LinkFixture.asi), ("curl", LinkFixture.curl)] {
            let before = try link.stats(.c2s).forwarded
            let output = nginx.directory + "/\(name).out"
            let flags = ["-s", "-S", "--connect-timeout", "3", "--retry", "3", "--retry-delay", "12", "-o", output]
            let argv = link.launcher(.client) + [program] + flags + LinkFixture.tlsArguments(nginx)
                + [LinkFixture.tlsURL("/small.bin")]
            async let run = LinkCommand.run(argv, limit: .seconds(150))
            let cut = try await link.when(
                .c2s, hasForwarded: before + 1, run: [("link down", .seconds(10)), ("link up", .zero)])
            let finished = try await run
            #expect(cut, "\(name): no byte of the handshake crossed the link")
            #expect(finished.status == 0, "\(name): \(finished.stderr)")
            let intact = FileManager.default.contents(atPath: output).map(Array.init) == body
            #expect(intact, "\(name): the saved file is not the body")
            #expect(finished.elapsed >= .seconds(12), "\(name) finished after \(finished.elapsed): no retry?")
        }
    }

    @Test func theLibraryResumesADownloadFileAfterAFlap() async throws {
        let body = LinkFixture.body(Self.size)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        let transport = try LinkFixture.clientSideTransport(link)
        let client = Client(transport: transport)
        try link.set(.both, "delay_ms=10 rate=1500000")
        let destination = nginx.directory + "/library.bin"
        var request = Request(url: URL(string: LinkFixture.url("/big.bin"))!)
        request.options.timeout = .seconds(2)
        request.options.retryPolicy = RetryPolicy(maxAttempts: 4, initialDelay: .seconds(8), multiplier: 1, jitter: 0)
        request.options.download = DownloadOptions(
            destinationPath: destination, temporaryPath: destination + ".part", allowsResume: true)
        let namespace = link.namespaceID(.client)
        let finalRequest = request
        async let response = LinkFixture.send(finalRequest, client, transport, namespace: namespace)
        let cut = try await link.when(
            .s2c, hasForwarded: 1 << 20, run: [("link down", .seconds(3)), ("link up", .zero)])
        let received = try await response
        #expect(cut, "the transfer never reached 1 MiB")
        #expect(received.status.code == 206 && received.info.retryCount >= 1, "\(received.status), \(received.info)")
        let saved = FileManager.default.contents(atPath: destination).map(Array.init) ?? []
        let intact = saved == body
        #expect(intact, "saved \(saved.count) bytes, not the body")
        #expect(!FileManager.default.fileExists(atPath: destination + ".part"), "the partial file was left behind")
        try await client.shutdown()
    }
}
