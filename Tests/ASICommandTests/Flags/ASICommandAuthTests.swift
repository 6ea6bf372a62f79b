import FoundationEssentials
import HTTPTesting
import TestSupport
import Testing

/// `asi`'s authentication flags against real servers: `--digest`, `--ntlm` and `--oauth2-bearer` against httpbin
/// and Apache, `-x` with `-U` and `--proxy-basic`/`--proxy-digest`/`--proxy-ntlm` through squid, and an
/// unanswered 401 printed with exit 0, as curl does.
@Suite("asi: authentication", .serialized)
struct ASICommandAuthTests {
    @Test(.enabled(if: HttpbinPeer.shouldRun)) func digestAndBearerAgainstHttpbin() async throws {
        try await withHttpbin { httpbin in
            for algorithm in ["MD5", "SHA-256"] {
                let url = httpbin.url("/digest-auth/auth/u/p/\(algorithm)").absoluteString
                let run = try await ASICommandRun.run(["--digest", "-u", "u:p", url])
                #expect(run.status == 0, "\(algorithm): \(run.stderr)")
                #expect(run.output.contains("\"authenticated\": true"), "\(run.output)")
            }
            let bearerURL = httpbin.url("/bearer").absoluteString
            let bearer = try await ASICommandRun.run(["--oauth2-bearer", "t0k3n", bearerURL])
            #expect(bearer.status == 0, "\(bearer.stderr)")
            #expect(bearer.output.contains("\"token\": \"t0k3n\""), "\(bearer.output)")
            // A wrong password: curl prints the last 401 and exits 0; -f makes it 22.
            let url = httpbin.url("/digest-auth/auth/u/p/MD5").absoluteString
            let wrong = try await ASICommandRun.run(["--digest", "-u", "u:nope", "-w", "%{http_code}", url])
            #expect(wrong.status == 0, "\(wrong.stderr)")
            #expect(wrong.output.hasSuffix("401"))
            let failing = try await ASICommandRun.run(["-f", "--digest", "-u", "u:nope", url])
            #expect(failing.status == 22, "\(failing.stderr)")
            #expect(!failing.stderr.contains("nope"))
        }
    }

    @Test(.enabled(if: ApachePeer.shouldRun)) func digestAgainstApache() async throws {
        try await withApache { apache in
            let url = apache.url("/digest/index.txt").absoluteString
            let run = try await ASICommandRun.run(["--anyauth", "-u", "\(ApachePeer.user):\(ApachePeer.password)",
                                                   url, url])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.output == "digest secret\ndigest secret\n")
        }
    }

    @Test(.enabled(if: SquidPeer.shouldRun), arguments: ["--proxy-basic", "--proxy-digest", "--proxy-ntlm"])
    func proxyFlagsThroughSquid(_ flag: String) async throws {
        let origin = try LoopbackServer { _ in .ok("from the origin") }
        defer { origin.shutdown() }
        try await withSquid { squid in
            let user = flag == "--proxy-ntlm" ? "DOMAIN\\\(SquidPeer.user)" : SquidPeer.user
            let run = try await ASICommandRun.run([
                "-x", "127.0.0.1:\(squid.port)", flag, "-U", "\(user):\(SquidPeer.password)",
                origin.url("/via").absoluteString,
            ])
            #expect(run.status == 0, "\(flag): \(run.stderr)")
            #expect(run.output == "from the origin", "\(flag): \(squid.accessLog)")
        }
    }

    /// squid's `ntlm_fake_auth` sends a CHALLENGE without target info and with extended session security: with
    /// `--allow-ntlmv1` asi answers it with NTLMv1 with a client challenge (NTLM2 session), which squid takes.
    @Test(.enabled(if: SquidPeer.shouldRun)) func ntlmV1ThroughSquid() async throws {
        let origin = try LoopbackServer { _ in .ok("from the origin") }
        defer { origin.shutdown() }
        try await withSquid { squid in
            let run = try await ASICommandRun.run([
                "-x", "127.0.0.1:\(squid.port)", "--proxy-ntlm", "--allow-ntlmv1",
                "-U", "DOMAIN\\\(SquidPeer.user):\(SquidPeer.password)", origin.url("/via").absoluteString,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.output == "from the origin", "\(squid.accessLog)")
        }
    }

    /// `-x http://user:pass@host:port` carries the proxy's credential (curl's form); the password never shows in
    /// what asi prints, even when the proxy refuses it.
    @Test(.enabled(if: SquidPeer.shouldRun)) func credentialsInTheProxyURL() async throws {
        let origin = try LoopbackServer { _ in .ok("from the origin") }
        defer { origin.shutdown() }
        try await withSquid { squid in
            let good = try await ASICommandRun.run([
                "-x", "http://\(SquidPeer.user):\(SquidPeer.password)@127.0.0.1:\(squid.port)",
                origin.url("/via").absoluteString,
            ])
            #expect(good.status == 0, "\(good.stderr)")
            #expect(good.output == "from the origin", "\(squid.accessLog)")
            let bad = try await ASICommandRun.run([
                "-f", "-v", "-x", "http://\(SquidPeer.user):pr0xy-wr0ng@127.0.0.1:\(squid.port)",
                origin.url("/via").absoluteString,
            ])
            #expect(bad.status != 0)
            #expect(!bad.stderr.contains("pr0xy-wr0ng") && !bad.output.contains("pr0xy-wr0ng"))
        }
    }
}
