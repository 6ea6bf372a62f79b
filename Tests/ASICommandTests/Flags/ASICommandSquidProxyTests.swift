import FoundationEssentials
import HTTPTesting
import TestSupport
import Testing

/// `asi` through an authenticating squid (`basic_ncsa_auth`, `digest_file_auth`, `ntlm_fake_auth`) for plain
/// `http` URLs: the proxy from the environment with its credential in the URL, a wrong password answered with
/// squid's 407 (printed with exit 0 and `-w %{http_code}` as curl does, 22 with `-f`), and `--proxy-anyauth`
/// waiting for the challenge and answering the strongest scheme offered.
@Suite("asi: squid proxy", .serialized, .enabled(if: SquidPeer.shouldRun))
struct ASICommandSquidProxyTests {
    static let cleared = ["http_proxy": "", "https_proxy": "", "HTTPS_PROXY": "", "all_proxy": "", "ALL_PROXY": "",
                          "no_proxy": "", "NO_PROXY": ""]

    @Test(arguments: ["--proxy-basic", "--proxy-digest", "--proxy-ntlm"])
    func theEnvironmentsProxyWithEachScheme(_ flag: String) async throws {
        let origin = try LoopbackServer { _ in .ok("from the origin") }
        defer { origin.shutdown() }
        try await withSquid { squid in
            let user = flag == "--proxy-ntlm" ? "DOMAIN%5C\(SquidPeer.user)" : SquidPeer.user
            var environment = Self.cleared
            environment["http_proxy"] = "http://\(user):proxy%20pass@127.0.0.1:\(squid.port)"
            let run = try await ASICommandRun.run(["-s", flag, origin.url("/env").absoluteString],
                                                  environment: environment)
            #expect(run.status == 0 && run.output == "from the origin", "\(flag): \(run.stderr) \(squid.accessLog)")
            #expect(squid.accessLog.contains("http://127.0.0.1:\(origin.port)/env"), "\(squid.accessLog)")
            #expect(origin.requests.first?.header("Proxy-Authorization") == nil)
        }
    }

    @Test(arguments: ["--proxy-basic", "--proxy-digest"])
    func aWrongPasswordGetsSquids407(_ flag: String) async throws {
        let origin = try LoopbackServer { _ in .ok("never") }
        defer { origin.shutdown() }
        try await withSquid { squid in
            let proxy = ["-x", "127.0.0.1:\(squid.port)", flag, "-U", "\(SquidPeer.user):wr0ng-pr0xy-pw"]
            let printed = try await ASICommandRun.run(
                ["-s", "-o", "/dev/null", "-w", "%{http_code}"] + proxy + [origin.url("/a").absoluteString],
                environment: Self.cleared)
            #expect(printed.status == 0, "\(flag): \(printed.stderr)")
            #expect(printed.output == "407", "\(flag): \(printed.output)")
            let failing = try await ASICommandRun.run(["-s", "-S", "-f"] + proxy + [origin.url("/b").absoluteString],
                                                      environment: Self.cleared)
            #expect(failing.status == 22, "\(flag): \(failing.stderr)")
            #expect(!failing.stderr.contains("wr0ng-pr0xy-pw") && !printed.output.contains("wr0ng-pr0xy-pw"))
            #expect(origin.requests.isEmpty)
            #expect(squid.accessLog.contains("/407"), "\(squid.accessLog)")
        }
    }

    @Test func proxyAnyauthWaitsForSquidsChallenge() async throws {
        let origin = try LoopbackServer { _ in .ok("from the origin") }
        defer { origin.shutdown() }
        try await withSquid { squid in
            let run = try await ASICommandRun.run([
                "-s", "-x", "127.0.0.1:\(squid.port)", "--proxy-anyauth", "-U", "\(SquidPeer.user):\(SquidPeer.password)",
                origin.url("/any").absoluteString,
            ], environment: Self.cleared)
            #expect(run.status == 0 && run.output == "from the origin", "\(run.stderr)")
            let lines = squid.accessLog.split(separator: "\n").filter { $0.contains("/any") }
            #expect(lines.count == 2 && lines[0].contains("/407") && lines[1].contains("/200"), "\(squid.accessLog)")
            #expect(lines.last?.contains(SquidPeer.user) == true, "\(squid.accessLog)")
        }
    }

    /// Which scheme `--proxy-anyauth` picks is seen on the wire: a proxy that offers Basic and Digest gets Digest.
    @Test func proxyAnyauthAnswersTheStrongestSchemeOffered() async throws {
        let proxy = try LoopbackServer { request in
            guard request.header("Proxy-Authorization") != nil else {
                return .status(407, headers: [
                    ("Proxy-Authenticate", "Basic realm=\"p\""),
                    ("Proxy-Authenticate", "Digest realm=\"p\", nonce=\"n0nce\", qop=\"auth\", algorithm=MD5"),
                ])
            }
            return .ok("through the proxy")
        }
        defer { proxy.shutdown() }
        let run = try await ASICommandRun.run([
            "-s", "-x", "127.0.0.1:\(proxy.port)", "--proxy-anyauth", "-U", "u:p", "http://origin.invalid/x",
        ], environment: Self.cleared)
        #expect(run.status == 0 && run.output == "through the proxy", "\(run.stderr)")
        let requests = proxy.requests
        #expect(requests.count == 2)
        #expect(requests.first?.header("Proxy-Authorization") == nil)
        #expect(requests.last?.header("Proxy-Authorization")?.hasPrefix("Digest ") == true)
        #expect(requests.last?.target == "http://origin.invalid/x")
    }
}
