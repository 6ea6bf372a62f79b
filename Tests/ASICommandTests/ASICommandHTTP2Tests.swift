import FoundationEssentials
import TestSupport
import Testing

/// `asi` speaks HTTP/2 as curl 7.88 does: `h2` offered by ALPN over https by default, `--http1.1` to stay on
/// HTTP/1.1, `--http2-prior-knowledge` for cleartext, `%{http_version}`, and exit 92 for a reset stream. curl runs
/// beside it on the same servers where it is installed.
@Suite("asi over HTTP/2", .enabled(if: HTTP2NginxPeer.shouldRun))
struct ASICommandHTTP2Tests {
    private static let curl = ChildProcess.find("curl")

    /// Runs `asi`, and curl with the same arguments when it is installed; returns both stdouts.
    private func both(_ arguments: [String]) async throws -> (asi: ASICommandRun, curl: String?) {
        let asi = try await ASICommandRun.run(arguments, limit: .seconds(120))
        guard let curl = Self.curl else { return (asi, nil) }
        let directory = try makeTemporaryDirectory(prefix: "asikit-curl-h2")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = "\"$0\" \"$@\" > \(directory)/out"
        _ = try ChildProcess.run("/bin/sh", ["-c", script, curl] + arguments, logPath: directory + "/log")
        let output = FileManager.default.contents(atPath: directory + "/out")
        return (asi, output.map { String(decoding: $0, as: UTF8.self) })
    }

    @Test func httpsOffersH2ByDefaultAndHTTP11OnRequest() async throws {
        try await withHTTP2Nginx { nginx in
            let url = nginx.url("/1k.bin").absoluteString
            let base = ["-s", "-o", "/dev/null", "--cacert", nginx.certificates.caPath, "-w", "%{http_version}"]
            let byDefault = try await both(base + [url])
            #expect(byDefault.asi.status == 0, "\(byDefault.asi.stderr)")
            #expect(byDefault.asi.output == "2")
            if let curl = byDefault.curl { #expect(curl == "2") }
            let http2 = try await both(base + ["--http2", url])
            #expect(http2.asi.output == "2")
            let http11 = try await both(base + ["--http1.1", url])
            #expect(http11.asi.output == "1.1")
            if let curl = http11.curl { #expect(curl == "1.1") }
        }
    }

    @Test func priorKnowledgeSpeaksH2OnCleartext() async throws {
        try await withHTTP2Nginx { nginx in
            let url = nginx.url("/1k.bin", on: .cleartext).absoluteString
            let run = try await both(["-s", "-o", "/dev/null", "--http2-prior-knowledge", "-w", "%{http_version}", url])
            #expect(run.asi.status == 0, "\(run.asi.stderr)")
            #expect(run.asi.output == "2")
            if let curl = run.curl { #expect(curl == "2") }
        }
    }

    @Test(.enabled(if: H2FaultServer.shouldRun)) func aResetStreamExits92() async throws {
        try await withPeer(start: { try H2FaultServer.start(.normal) }, stop: { $0.stop() }) { server in
            let run = try await ASICommandRun.run(
                ["-s", "-S", "--http2-prior-knowledge", server.url("/reset").absoluteString], limit: .seconds(120))
            #expect(run.status == 92, "\(run.stderr)")
            #expect(run.stderr.contains("(92)"))
        }
    }
}
