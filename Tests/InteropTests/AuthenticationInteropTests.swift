import FoundationEssentials
import HTTPAuthentication
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import Synchronization
import TestSupport
import Testing

/// The authentication schemes against real servers: httpbin's Basic and Digest endpoints (MD5, SHA-256,
/// auth-int, the stale-nonce form), Apache's `mod_auth_digest`, and squid as an authenticating forward proxy with
/// Basic, Digest and NTLM helpers.
@Suite("authentication interop")
struct AuthenticationInteropTests {
    static func client(
        proxy: ProxyRoute? = nil,
        handler: (@Sendable (AuthenticationChallenge) async throws -> Credential?)? = nil
    ) -> Client {
        let resolver = proxy.map { route in ScriptedProxyResolver { _ in [route] } }
        return Client(transport: .posix(.init(proxyResolver: resolver)), authenticators: [.digest(), .ntlm()],
                      configuration: Client.Configuration(authenticationHandler: handler))
    }

    static func request(_ url: URL, user: String? = nil, password: String = "") -> Request {
        var request = Request(url: url)
        request.options.timeout = generousTimeout
        if let user { request.options.credential = Credential(user: user, password: password) }
        return request
    }

    // MARK: httpbin

    @Test(.enabled(if: HttpbinPeer.shouldRun)) func httpbinBasicAndHiddenBasic() async throws {
        try await withHttpbin { httpbin in
            let client = Self.client()
            let challenged = try await client.send(Self.request(httpbin.url("/basic-auth/alice/wonder%20land"),
                                                                user: "alice", password: "wonder land"))
            #expect(challenged.status == .ok)
            // /hidden-basic-auth answers 404 without credentials: only credentials sent up front work.
            var hidden = Self.request(httpbin.url("/hidden-basic-auth/bob/secret"), user: "bob", password: "secret")
            hidden.options.authenticationScheme = .basic
            #expect(try await client.send(hidden).status == .ok)
            try await client.shutdown()
        }
    }

    @Test(.enabled(if: HttpbinPeer.shouldRun), arguments: ["auth/u/p/MD5", "auth/u/p/SHA-256", "auth-int/u/p/MD5",
                                                           "auth/u/p/MD5-sess" ])
    func httpbinDigest(_ path: String) async throws {
        try await withHttpbin { httpbin in
            let client = Self.client()
            let response = try await client.send(Self.request(httpbin.url("/digest-auth/" + path), user: "u",
                                                              password: "p"))
            #expect(response.status == .ok, "\(path): \(response.text())")
            #expect(response.text().contains("\"authenticated\": true"))
            try await client.shutdown()
        }
    }

    @Test(.enabled(if: HttpbinPeer.shouldRun)) func httpbinStaleNonceIsAnsweredWithoutAskingAgain() async throws {
        try await withHttpbin { httpbin in
            let asked = Mutex(0)
            let client = Self.client { _ in
                asked.withLock { $0 += 1 }
                return Credential(user: "user", password: "passwd")
            }
            let url = httpbin.url("/digest-auth/auth/user/passwd/MD5/1")
            for _ in 0..<3 {
                let response = try await client.send(Self.request(url))
                #expect(response.status == .ok, "\(response.text())")
            }
            #expect(asked.withLock { $0 } == 1)
            try await client.shutdown()
        }
    }

    // MARK: a body sent again after a Digest challenge (loopback server)

    @Test func aFileBodyIsSentAgainAfterAChallengeAndItsProgressTakenBack() async throws {
        let body = [UInt8](repeating: 0x61, count: 200_000)
        let origin = try LoopbackServer { request in
            guard request.header("Authorization")?.hasPrefix("Digest ") == true else {
                return .status(401, headers: [("WWW-Authenticate", "Digest realm=\"r\", nonce=\"n\", qop=\"auth\"")])
            }
            return .ok("got \(request.body.count)")
        }
        defer { origin.shutdown() }
        let directory = try makeTemporaryDirectory(prefix: "asikit-auth-body")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(body).write(to: URL(filePath: directory + "/body"))
        let client = Self.client()
        var request = Self.request(origin.url("/upload"), user: "u", password: "p")
        request.method = .put
        request.body = try .file(atPath: directory + "/body")
        let progress = RecordingProgressSink()
        request.options.progress = progress
        #expect(try await client.send(request).text() == "got 200000")
        #expect(origin.requests.map(\.body.count) == [200_000, 200_000])
        let upload = progress.events(.upload)
        #expect(upload.reduce(0) { $0 + $1.byteDelta } == 200_000)
        #expect(upload.contains { $0.byteDelta < 0 })  // the first attempt's bytes taken back
        try await client.shutdown()
    }

    // MARK: Apache mod_auth_digest

    @Test(.enabled(if: ApachePeer.shouldRun)) func apacheDigestCountsItsNonceOnLaterRequests() async throws {
        try await withApache { apache in
            let client = Self.client()
            let first = Self.request(apache.url("/digest/index.txt"), user: ApachePeer.user,
                                     password: ApachePeer.password)
            #expect(try await client.send(first).text() == "digest secret\n")
            // The next requests go with the session's nonce up front (nc=00000002, ...): no more 401s.
            for _ in 0..<2 {
                let response = try await client.send(Self.request(apache.url("/digest/index.txt")))
                #expect(response.status == .ok, "\(apache.accessLog)")
            }
            let challenges = apache.accessLog.split(separator: "\n").filter { $0.hasSuffix(" 401") }
            #expect(challenges.count == 1, "\(apache.accessLog)")
            try await client.shutdown()
        }
    }

    @Test(.enabled(if: ApachePeer.shouldRun)) func apacheDigestPostReplaysTheBody() async throws {
        try await withApache { apache in
            let client = Self.client()
            var request = Self.request(apache.url("/digest/index.txt?q=1"), user: ApachePeer.user,
                                       password: ApachePeer.password)
            request.method = .post
            request.body = .string("payload")
            let response = try await client.send(request)
            // Apache serves no POST to a static file (405), but only after accepting the Digest answer.
            #expect(response.status.code != 401, "\(apache.accessLog)")
            try await client.shutdown()
        }
    }

    @Test(.enabled(if: ApachePeer.shouldRun)) func apacheRejectsAWrongPasswordAndTheHandlerIsAsked() async throws {
        try await withApache { apache in
            let asked = Mutex(0)
            let client = Self.client { challenge in
                asked.withLock { $0 += 1 }
                #expect(challenge.realm == ApachePeer.realm)
                return challenge.failureCount == 1 ? Credential(user: ApachePeer.user, password: ApachePeer.password)
                    : nil
            }
            let request = Self.request(apache.url("/digest/index.txt"), user: ApachePeer.user, password: "wrong")
            #expect(try await client.send(request).status == .ok)
            #expect(asked.withLock { $0 } == 1)
            try await client.shutdown()
        }
    }

    // MARK: squid

    @Test(.enabled(if: SquidPeer.shouldRun), arguments: ["Basic", "Digest", "NTLM"])
    func squidProxyAuthentication(_ scheme: String) async throws {
        let origin = try LoopbackServer { _ in .ok("from the origin") }
        defer { origin.shutdown() }
        try await withSquid { squid in
            let client = Self.client(proxy: squid.route())
            var request = Self.request(origin.url("/through?x=1"))
            request.options.proxyAuthenticationScheme = AuthenticationScheme(scheme)
            request.options.proxyCredential = scheme == "NTLM"
                ? Credential(user: "DOMAIN\\\(SquidPeer.user)", password: SquidPeer.password)
                : Credential(user: SquidPeer.user, password: SquidPeer.password)
            let response = try await client.send(request)
            #expect(response.status == .ok, "\(scheme): \(squid.accessLog)")
            #expect(response.text() == "from the origin")
            #expect(origin.requests.first?.header("Proxy-Authorization") == nil)
            try await client.shutdown()
        }
    }

    @Test(.enabled(if: SquidPeer.shouldRun)) func squidRejectsAWrongProxyPassword() async throws {
        let origin = try LoopbackServer { _ in .ok("from the origin") }
        defer { origin.shutdown() }
        try await withSquid { squid in
            let client = Self.client(proxy: squid.route())
            var request = Self.request(origin.url("/"))
            request.options.proxyCredential = Credential(user: SquidPeer.user, password: "wrong")
            let error = await #expect(throws: ClientError.self) { try await client.send(request) }
            #expect(error?.code == .authenticationFailed)
            #expect(error?.description.contains("wrong") == false)
            #expect(origin.requests.isEmpty)
            try await client.shutdown()
        }
    }

    @Test(.enabled(if: SquidPeer.shouldRun && NginxPeer.shouldRun), arguments: ["Basic", "Digest"])
    func squidAuthenticatesACONNECTTunnel(_ scheme: String) async throws {
        try await withNginx { nginx in
            try await withSquid { squid in
                let client = Self.client(proxy: squid.route())
                var request = Self.request(nginx.url("/hello.txt", on: .tls))
                request.options.tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
                request.options.proxyAuthenticationScheme = AuthenticationScheme(scheme)
                request.options.proxyCredential = Credential(user: SquidPeer.user, password: SquidPeer.password)
                let response = try await client.send(request)
                #expect(response.status == .ok, "\(scheme): \(squid.accessLog)")
                #expect(squid.accessLog.contains("CONNECT"), "\(squid.accessLog)")
                try await client.shutdown()
            }
        }
    }
}
