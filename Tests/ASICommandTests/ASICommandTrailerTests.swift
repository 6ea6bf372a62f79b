import FoundationEssentials
import HTTPTesting
import TestSupport
import Testing

/// `asi -i` prints trailer fields after the body, where curl prints them: for an HTTP/1.1 chunked body (compared
/// with curl's own output when curl is installed) and for HTTP/2 trailers beside a `Content-Length`, which curl
/// 7.88 drops.
@Suite("asi: trailers")
struct ASICommandTrailerTests {
    @Test func includePrintsChunkedTrailersAfterTheBodyAsCurlDoes() async throws {
        let server = try LoopbackServer { _ in
            .chunked(chunks: [Array("hello ".utf8), Array("trailers".utf8)],
                     trailers: [("X-Checksum", "abc123"), ("X-Other", "two words")])
        }
        defer { server.shutdown() }
        let url = server.url("/t").absoluteString
        let run = try await ASICommandRun.run(["-s", "-i", url])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.hasSuffix("\r\n\r\nhello trailersX-Checksum: abc123\r\nX-Other: two words\r\n"),
                "\(run.output)")
        if let curl = ChildProcess.find("curl") {
            let directory = try makeTemporaryDirectory(prefix: "asikit-curl-trailers")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            _ = try ChildProcess.run("/bin/sh", ["-c", "\"$0\" -s -i \"$1\" > \(directory)/out", curl, url],
                                     logPath: directory + "/log")
            let output = String(decoding: FileManager.default.contents(atPath: directory + "/out") ?? Data(),
                                as: UTF8.self)
            #expect(output.hasSuffix("hello trailersX-Checksum: abc123\r\nX-Other: two words\r\n"), "curl: \(output)")
        }
    }

    @Test(.enabled(if: H2FaultServer.shouldRun)) func includePrintsH2TrailersBesideAContentLength() async throws {
        try await withPeer(start: { try H2FaultServer.start(.normal) }, stop: { $0.stop() }) { server in
            let run = try await ASICommandRun.run(
                ["-s", "-i", "--http2-prior-knowledge", server.url("/trailers").absoluteString], limit: .seconds(120))
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.output.hasPrefix("HTTP/2 200"), "\(run.output)")
            #expect(run.output.hasSuffix("\r\n\r\nokx-checksum: sha256-ok\r\nx-status: 0\r\n"), "\(run.output)")
        }
    }
}
