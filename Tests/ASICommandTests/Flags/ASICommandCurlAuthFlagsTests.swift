import FoundationEssentials
import HTTPTesting
import TestSupport
import Testing

/// curl flags added for curl's own Digest cases (Decision 0008): `-T FILE -C OFFSET -X GET`, the body-less
/// probe of a `--digest` POST, `--location-trusted` and `--next` against the loopback server, and through squid
/// to Apache: credentials inside `-x`, proxy Basic sent before any 407, and the origin's Digest `uri` as the path
/// Apache receives.
@Suite("asi: curl's auth-related flags")
struct ASICommandCurlAuthFlagsTests {
    @Test func resumedUploadSendsTheRestWithContentRangeAndKeepsTheMethod() async throws {
        let server = try LoopbackServer { _ in .ok("stored") }
        defer { server.shutdown() }
        let directory = try makeTemporaryDirectory(prefix: "asikit-resume-upload")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/upload.txt"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("0123456789".utf8)))
        let run = try await ASICommandRun.run(["-T", file, "-C", "4", "-X", "GET", server.url("/up").absoluteString])
        #expect(run.status == 0, "\(run.stderr)")
        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.bodyText == "456789")
        #expect(request.header("Content-Range") == "bytes 4-9/10")
        let plain = try await ASICommandRun.run(["-T", file, server.url("/up").absoluteString])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(server.requests.last?.method == "PUT" && server.requests.last?.bodyText == "0123456789")
        #expect(server.requests.last?.header("Content-Range") == nil)
        let offsetWithoutUpload = try await ASICommandRun.run(["-C", "4", server.url("/up").absoluteString])
        #expect(offsetWithoutUpload.status == 2)
    }

    @Test func digestPostProbesWithoutTheBodyAndSendsItOnce() async throws {
        let server = try LoopbackServer { request in
            if request.path == "/open" { return .ok("open") }
            if request.path == "/moved" { return .redirect(302, to: "/elsewhere") }
            guard request.header("Authorization") != nil else {
                return .status(401, headers: [("WWW-Authenticate", "Digest realm=\"r\", nonce=\"n\"")])
            }
            return .ok("authorized")
        }
        defer { server.shutdown() }
        let run = try await ASICommandRun.run([
            "--digest", "-u", "u:p", "-d", "payload", server.url("/auth").absoluteString,
        ])
        #expect(run.status == 0 && run.output == "authorized", "\(run.stderr)")
        #expect(server.requests.map(\.bodyText) == ["", "payload"])
        #expect(server.requests.first?.header("Content-Length") == "0")
        #expect(server.requests.first?.header("Authorization") == nil)
        // No challenge: the POST is sent again with its body (curl's test 175).
        let open = try await ASICommandRun.run([
            "--digest", "-u", "u:p", "-d", "payload", server.url("/open").absoluteString,
        ])
        #expect(open.status == 0 && open.output == "open", "\(open.stderr)")
        #expect(server.requests.suffix(2).map(\.bodyText) == ["", "payload"])
        // A redirect (or an error) to the probe is the answer (curl's test 177).
        let moved = try await ASICommandRun.run([
            "--digest", "-u", "u:p", "-d", "payload", "-w", "%{http_code}", server.url("/moved").absoluteString,
        ])
        #expect(moved.status == 0 && moved.output == "302", "\(moved.stderr)")
        #expect(server.requests.count == 5 && server.requests.last?.bodyText == "")
        // --anyauth and Basic (-u alone) send the body the first time (curl's tests 174, 156).
        let anyauth = try await ASICommandRun.run([
            "--anyauth", "-u", "u:p", "-d", "payload", server.url("/open").absoluteString,
        ])
        #expect(anyauth.status == 0, "\(anyauth.stderr)")
        let basic = try await ASICommandRun.run(["-u", "u:p", "-d", "payload", server.url("/open").absoluteString])
        #expect(basic.status == 0, "\(basic.stderr)")
        #expect(server.requests.count == 7 && server.requests.suffix(2).map(\.bodyText) == ["payload", "payload"])
    }

    @Test func locationTrustedSendsTheCredentialToTheOtherOrigin() async throws {
        let other = try LoopbackServer { _ in .ok("other") }
        defer { other.shutdown() }
        let first = try LoopbackServer { _ in .redirect(302, to: other.url("/landed").absoluteString) }
        defer { first.shutdown() }
        let url = first.url("/start").absoluteString
        let trusted = try await ASICommandRun.run(["--location-trusted", "-u", "u:p", url])
        #expect(trusted.status == 0 && trusted.output == "other", "\(trusted.stderr)")
        #expect(other.requests.last?.header("Authorization") == "Basic dTpw")
        let plain = try await ASICommandRun.run(["-L", "-u", "u:p", url])
        #expect(plain.status == 0 && plain.output == "other", "\(plain.stderr)")
        #expect(other.requests.count == 2)
        #expect(other.requests.last?.header("Authorization") == nil)
    }

    @Test func nextStartsAGroupWithItsOwnOptions() async throws {
        let server = try LoopbackServer { request in .ok(request.path) }
        defer { server.shutdown() }
        let run = try await ASICommandRun.run([
            server.url("/one").absoluteString, "--next", "-u", "u:p", server.url("/two").absoluteString,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output == "/one/two")
        #expect(server.requests.map(\.path) == ["/one", "/two"])
        #expect(server.requests.first?.header("Authorization") == nil)
        #expect(server.requests.last?.header("Authorization") == "Basic dTpw")
        let bad = try await ASICommandRun.run([server.url("/three").absoluteString, "--next", "--no-such-flag"])
        #expect(bad.status == 2)
        #expect(server.requests.count == 2, "a usage error in any group runs nothing")
    }

    @Test(.enabled(if: SquidPeer.shouldRun && ApachePeer.shouldRun))
    func digestToApacheThroughSquidWithCredentialsInTheProxyURL() async throws {
        try await withApache { apache in
            try await withSquid { squid in
                let run = try await ASICommandRun.run([
                    "-x", "http://\(SquidPeer.user):proxy%20pass@127.0.0.1:\(squid.port)",
                    "--digest", "-u", "\(ApachePeer.user):\(ApachePeer.password)",
                    apache.url("/digest/index.txt").absoluteString,
                ])
                #expect(run.status == 0, "\(run.stderr)")
                #expect(run.output == "digest secret\n", "\(squid.accessLog)")
                // Basic went to squid before any 407 (curl's -U rule), so squid never challenged ...
                #expect(!squid.accessLog.contains("/407"), "\(squid.accessLog)")
                // ... while --proxy-anyauth waits for the challenge.
                let waiting = try await ASICommandRun.run([
                    "-x", "127.0.0.1:\(squid.port)", "--proxy-anyauth", "-U", "\(SquidPeer.user):\(SquidPeer.password)",
                    "--digest", "-u", "\(ApachePeer.user):\(ApachePeer.password)",
                    apache.url("/digest/index.txt").absoluteString,
                ])
                #expect(waiting.status == 0 && waiting.output == "digest secret\n", "\(waiting.stderr)")
                #expect(squid.accessLog.contains("/407"), "\(squid.accessLog)")
            }
        }
    }
}
