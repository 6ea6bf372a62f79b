import FoundationEssentials
import TestSupport
import Testing

/// `asi -v` names the protocol a request went over, as curl's `-v` does: `> GET /1k.bin HTTP/2` and `< HTTP/2 200 `
/// (curl's trailing space: HTTP/2 has no reason phrase) for a request that went over HTTP/2 (negotiated by ALPN, or
/// with prior knowledge), with the field names lower-cased as they went, and the HTTP/1.1 lines for one that did
/// not. Against nginx, beside curl where it is installed.
@Suite("asi -v over HTTP/2", .enabled(if: HTTP2NginxPeer.shouldRun))
struct ASICommandVerboseHTTP2Tests {
    private static let curl = ChildProcess.find("curl")

    /// The request and status lines `-v` printed (`> METHOD target version`, `< version status ...`), and the name
    /// of the `User-Agent` line as it was printed (its value is each program's own).
    private static func protocolLines(_ stderr: String) -> [String] {
        // `\r\n` is one Character, a newline.
        stderr.split(whereSeparator: \.isNewline).map(String.init).compactMap { line -> String? in
            if line.hasPrefix("> GET ") || line.hasPrefix("< HTTP/") { return line }
            if line.lowercased().hasPrefix("> user-agent:") { return String(line.prefix { $0 != ":" }) }
            return nil
        }
    }

    /// `asi`'s lines, and curl's for the same arguments when it is installed.
    private func verbose(_ arguments: [String]) async throws -> (asi: [String], curl: [String]?) {
        let run = try await ASICommandRun.run(["-v", "-s", "-o", "/dev/null"] + arguments, limit: .seconds(120))
        #expect(run.status == 0, "\(run.stderr)")
        guard let curl = Self.curl else { return (Self.protocolLines(run.stderr), nil) }
        let directory = try makeTemporaryDirectory(prefix: "asikit-curl-verbose")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = "\"$0\" \"$@\" 2> \(directory)/err"
        _ = try ChildProcess.run("/bin/sh", ["-c", script, curl, "-v", "-s", "-o", "/dev/null"] + arguments,
                                 logPath: directory + "/log")
        let stderr = String(decoding: FileManager.default.contents(atPath: directory + "/err") ?? Data(), as: UTF8.self)
        return (Self.protocolLines(run.stderr), Self.protocolLines(stderr))
    }

    @Test func aRequestNegotiatedToHTTP2IsPrintedAsHTTP2() async throws {
        try await withHTTP2Nginx { nginx in
            let url = nginx.url("/1k.bin").absoluteString
            let lines = try await verbose(["--cacert", nginx.certificates.caPath, url])
            #expect(lines.asi == ["> GET /1k.bin HTTP/2", "> user-agent", "< HTTP/2 200 "], "\(lines.asi)")
            if let curl = lines.curl { #expect(lines.asi == curl) }
        }
    }

    @Test func priorKnowledgeIsPrintedAsHTTP2() async throws {
        try await withHTTP2Nginx { nginx in
            let url = nginx.url("/1k.bin", on: .cleartext).absoluteString
            let lines = try await verbose(["--http2-prior-knowledge", url])
            #expect(lines.asi == ["> GET /1k.bin HTTP/2", "> user-agent", "< HTTP/2 200 "], "\(lines.asi)")
            if let curl = lines.curl { #expect(lines.asi == curl) }
        }
    }

    /// The same server asked for HTTP/1.1, and an HTTP/1.1-only origin offered h2: the HTTP/1.1 lines.
    @Test func aRequestOverHTTP11IsPrintedAsHTTP11() async throws {
        try await withHTTP2Nginx { nginx in
            let ca = nginx.certificates.caPath
            let asked = try await verbose(["--http1.1", "--cacert", ca, nginx.url("/1k.bin").absoluteString])
            #expect(asked.asi == ["> GET /1k.bin HTTP/1.1", "> User-Agent", "< HTTP/1.1 200 OK"], "\(asked.asi)")
            if let curl = asked.curl { #expect(asked.asi == curl) }
            let chosen = try await verbose(["--cacert", ca, nginx.url("/1k.bin", on: .http1).absoluteString])
            #expect(chosen.asi == ["> GET /1k.bin HTTP/1.1", "> User-Agent", "< HTTP/1.1 200 OK"], "\(chosen.asi)")
            if let curl = chosen.curl { #expect(chosen.asi == curl) }
        }
    }
}
