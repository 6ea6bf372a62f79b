import FoundationEssentials
import HTTPTesting
import Testing

/// `-v` prints every hop as curl does: each request sent and each response head, redirects and 401/407 challenges
/// alike, with curl's `* Issue another request to this URL` line, and never a credential.
@Suite("asi: -v on every hop")
struct ASICommandVerboseHopsTests {
    @Test func verbosePrintsEveryHopOfRedirectsAndChallenges() async throws {
        let secret = "s3cret-pw"
        let basic = "YWxpY2U6czNjcmV0LXB3"  // base64 of alice:s3cret-pw
        let server = try LoopbackServer { request in
            switch request.path {
            case "/start": return .redirect(302, to: "/private")
            case "/private" where request.header("Authorization") == nil:
                return .status(401, headers: [("WWW-Authenticate", "Basic realm=\"r\"")])
            default: return .ok("private")
            }
        }
        defer { server.shutdown() }
        let run = try await ASICommandRun.run([
            "-s", "-v", "-L", "--anyauth", "-u", "alice:\(secret)", server.url("/start").absoluteString,
        ])
        #expect(run.status == 0 && run.output == "private", "\(run.stderr)")
        #expect(server.requests.count == 3)
        let requestLines = run.stderr.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("> GET ") }
        #expect(requestLines == ["> GET /start HTTP/1.1", "> GET /private HTTP/1.1", "> GET /private HTTP/1.1"])
        let statusLines = run.stderr.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("< HTTP/") }
        #expect(statusLines.map { $0.prefix(14) } == ["< HTTP/1.1 302", "< HTTP/1.1 401", "< HTTP/1.1 200"])
        let another = "* Issue another request to this URL: '\(server.url("/private").absoluteString)'"
        #expect(run.stderr.components(separatedBy: another).count == 3, "before each later hop: \(run.stderr)")
        #expect(run.stderr.contains("> Authorization: <redacted>"), "the answer is shown, redacted")
        #expect(run.stderr.contains("< WWW-Authenticate: Basic realm=\"r\""))
        for leaked in [secret, basic] { #expect(!run.stderr.contains(leaked), "\(leaked) leaked") }
    }

    @Test func verbosePrintsTheProxyChallengeAndItsAnswer() async throws {
        let proxy = try LoopbackServer { request in
            request.header("Proxy-Authorization") == nil
                ? .status(407, headers: [("Proxy-Authenticate", "Basic realm=\"p\"")]) : .ok("via the proxy")
        }
        defer { proxy.shutdown() }
        let run = try await ASICommandRun.run(
            [
                "-s", "-v", "-x", "http://127.0.0.1:\(proxy.port)", "-U", "pat:pr0xy-pw", "--proxy-anyauth",
                "http://origin.invalid/page",
            ], environment: ["no_proxy": "", "NO_PROXY": ""])
        #expect(run.status == 0 && run.output == "via the proxy", "\(run.stderr)")
        #expect(proxy.requests.count == 2)
        let statusLines = run.stderr.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("< HTTP/") }
        #expect(statusLines.map { $0.prefix(14) } == ["< HTTP/1.1 407", "< HTTP/1.1 200"], "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "> GET /page HTTP/1.1").count == 3)
        #expect(run.stderr.contains("* Issue another request to this URL: 'http://origin.invalid/page'"))
        #expect(run.stderr.contains("> Proxy-Authorization: <redacted>"))
        #expect(!run.stderr.contains("pr0xy-pw") && !run.stderr.contains("cGF0OnByMHh5LXB3"))
    }
}
