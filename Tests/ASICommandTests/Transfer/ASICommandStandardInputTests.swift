import FoundationEssentials
import HTTPTesting
import TestSupport
import Testing

/// `asi -T -`: standard input sent chunked, and never sent short when a challenge would need it again.
@Suite("asi: -T - (standard input)")
struct ASICommandStandardInputTests {
    static func input(_ bytes: [UInt8]) throws -> String {
        let directory = try DataPath.directory()
        let path = directory + "/stdin"
        try Data(bytes).write(to: URL(filePath: path))
        return path
    }

    @Test func standardInputIsSentChunkedAndWhole() async throws {
        let server = try LoopbackServer { _ in .ok("stored") }
        defer { server.shutdown() }
        let bytes = DataPath.bytes(300_000, seed: 7)
        let stdin = try Self.input(bytes)
        defer { try? FileManager.default.removeItem(atPath: URL(filePath: stdin).deletingLastPathComponent().path()) }
        let run = try await ASICommandRun.run(["-s", "-T", "-", server.url("/up").absoluteString], standardInput: stdin)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == Array("stored".utf8))
        #expect(server.requests.map(\.method) == ["PUT"])
        #expect(server.requests.first?.bodyWasChunked == true)
        #expect(server.requests.first?.body == bytes)
    }

    /// `asi --digest -u user:secret -T -` with `text` on standard input.
    static func digestUpload(_ text: String, to url: URL) async throws -> ASICommandRun {
        let stdin = try Self.input(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: URL(filePath: stdin).deletingLastPathComponent().path()) }
        return try await ASICommandRun.run(
            ["-s", "-S", "--digest", "-u", "user:secret", "-T", "-", url.absoluteString], standardInput: stdin)
    }

    /// With `--digest` the first request goes out without the body, so standard input is sent once, answered.
    @Test func aDigestChallengeIsAnsweredBeforeStandardInputIsSent() async throws {
        let server = try LoopbackServer { request in
            request.headers.contains { $0.name.lowercased() == "authorization" }
                ? .ok("stored")
                : .status(401, headers: [("WWW-Authenticate", "Digest realm=\"r\", nonce=\"n1\"")])
        }
        defer { server.shutdown() }
        let run = try await Self.digestUpload("only once", to: server.url("/up"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.requests.map(\.body) == [[], Array("only once".utf8)])
    }

    /// A stale nonce after the body was sent needs the body again: exit 25, and nothing is sent short.
    @Test func aChallengeThatNeedsStandardInputAgainExits25() async throws {
        let server = try LoopbackServer { request in
            let authorization = request.headers.first { $0.name.lowercased() == "authorization" }?.value ?? ""
            if authorization.contains("nonce=\"n2\"") { return .ok("stored") }
            let stale = authorization.isEmpty ? "" : ", stale=true"
            let nonce = authorization.isEmpty ? "n1" : "n2"
            return .status(401, headers: [("WWW-Authenticate", "Digest realm=\"r\", nonce=\"\(nonce)\"\(stale)")])
        }
        defer { server.shutdown() }
        let run = try await Self.digestUpload("only once", to: server.url("/up"))
        #expect(run.status == 25, "\(run.stderr)")
        #expect(run.stderr.contains("one-time stream"), "\(run.stderr)")
        #expect(!run.stderr.contains("secret"))
        #expect(server.requests.map(\.body) == [[], Array("only once".utf8)], "never sent a third time, short")
    }
}
