import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@testable import HTTPAuthentication

/// The pipeline's challenge loop with the Digest and NTLM authenticators, against scripted servers that check
/// every answer by recomputation.
@Suite struct SchemeNegotiationTests {
    static let user = "Mufasa"
    static let password = "Circle of Life"

    /// The `key="value"` parameters of an Authorization value.
    static func parameters(_ value: String) -> [String: String] {
        ChallengeParser.challenges(in: [value]).first?.parameters ?? [:]
    }

    /// Whether a Digest answer is right for the nonce, by recomputation.
    static func isValidDigest(_ value: String?, method: String, nonce: String) -> Bool {
        guard let value, value.hasPrefix("Digest ") else { return false }
        let fields = parameters(value)
        guard let algorithm = DigestComputation.Algorithm(fields["algorithm"]), fields["nonce"] == nonce,
            let uri = fields["uri"]
        else { return false }
        let computation = DigestComputation(algorithm: algorithm, user: user, password: password,
                                            realm: fields["realm"] ?? "", nonce: nonce)
        let response = try? computation.response(method: method, uri: uri, qop: fields["qop"],
                                                 nc: fields["nc"] ?? "", cnonce: fields["cnonce"] ?? "")
        return response == fields["response"]
    }

    /// A Digest server: nonce `n1` (stale once a count reaches `staleAfter`, then `n2`), qop auth, SHA-256.
    static func digestServer(staleAfter: Int = .max) -> ScriptedTransport {
        let accepted = Mutex(0)
        return ScriptedTransport { request, _ in
            let value = request.headerFields[.authorization]
            let nonce = accepted.withLock { $0 } >= staleAfter ? "n2" : "n1"
            if isValidDigest(value, method: request.method.rawValue, nonce: nonce) {
                accepted.withLock { $0 += 1 }
                return .text("welcome")
            }
            let stale = value.map { parameters($0)["nonce"] == "n1" && nonce == "n2" } ?? false
            var fields = HTTPFields()
            fields[.wwwAuthenticate] = "Basic realm=\"api\""
            fields.append(HTTPField(name: .wwwAuthenticate, value: "Digest realm=\"api\", qop=\"auth\", "
                + "algorithm=SHA-256, nonce=\"\(nonce)\"" + (stale ? ", stale=true" : "")))
            return .text("denied", status: 401, headerFields: fields)
        }
    }

    static func client(_ transport: ScriptedTransport, handler: (@Sendable (AuthenticationChallenge) async throws
        -> Credential?)? = nil) -> Client
    {
        Client(transport: transport, authenticators: [DigestAuthenticator(), NTLMAuthenticator()],
               configuration: Client.Configuration(authenticationHandler: handler))
    }

    @Test func digestIsPreferredToBasicAndCountsTheNonceOnLaterRequests() async throws {
        let transport = Self.digestServer()
        let client = Self.client(transport)
        var request = Request("http://a.example/dir/index.html?x=1")
        request.options.credential = Credential(user: Self.user, password: Self.password)
        #expect(try await client.send(request).text() == "welcome")
        #expect(transport.requests.count == 2)
        let answer = try #require(transport.requests[1].headerFields[.authorization])
        #expect(Self.parameters(answer)["uri"] == "/dir/index.html?x=1")
        #expect(Self.parameters(answer)["nc"] == "00000001")

        // The session's negotiation goes up front with the next count.
        #expect(try await client.send(Request("http://a.example/other")).text() == "welcome")
        #expect(transport.requests.count == 3)
        let reused = try #require(transport.requests[2].headerFields[.authorization])
        #expect(Self.parameters(reused)["nc"] == "00000002")
    }

    @Test func staleNonceIsAnsweredWithoutAskingAgain() async throws {
        let transport = Self.digestServer(staleAfter: 1)
        let asked = Mutex(0)
        let client = Self.client(transport) { _ in
            asked.withLock { $0 += 1 }
            return Credential(user: Self.user, password: Self.password)
        }
        #expect(try await client.send(Request("http://a.example/one")).text() == "welcome")
        // The next request sends n1 up front, hears stale=true with n2 and answers with the same credential.
        #expect(try await client.send(Request("http://a.example/two")).text() == "welcome")
        #expect(asked.withLock { $0 } == 1)
        let last = try #require(transport.requests.last?.headerFields[.authorization])
        #expect(Self.parameters(last)["nonce"] == "n2")
    }

    @Test func aRejectedDigestCredentialAsksTheHandler() async throws {
        let transport = Self.digestServer()
        let asked = Mutex(0)
        let client = Self.client(transport) { challenge in
            asked.withLock { $0 += 1 }
            #expect(challenge.scheme == .digest)
            #expect(challenge.failureCount == 1)
            return Credential(user: Self.user, password: Self.password)
        }
        var request = Request("http://a.example/")
        request.options.credential = Credential(user: Self.user, password: "wrong")
        #expect(try await client.send(request).text() == "welcome")
        #expect(asked.withLock { $0 } == 1)
    }

    @Test func aForcedSchemeAnswersOnlyThatScheme() async throws {
        let transport = ScriptedTransport { request, _ in
            if request.headerFields[.authorization]?.hasPrefix("Basic ") == true { return .text("welcome") }
            var fields = HTTPFields()
            fields[.wwwAuthenticate] = "Basic realm=\"api\""
            return .text("denied", status: 401, headerFields: fields)
        }
        var request = Request("http://a.example/")
        request.options.credential = Credential(user: "u", password: "p")
        request.options.authenticationScheme = .digest
        let error = await #expect(throws: ClientError.self) { try await Self.client(transport).send(request) }
        #expect(error?.code == .authenticationFailed)

        request.options.failsOnUnansweredChallenge = false
        let response = try await Self.client(transport).send(request)
        #expect(response.status.code == 401)
        #expect(response.text() == "denied")
    }

    @Test func bearerTokensGoUpFront() async throws {
        let transport = ScriptedTransport { request, _ in
            .text(request.headerFields[.authorization] == "Bearer t0k3n" ? "welcome" : "denied")
        }
        var request = Request("http://a.example/")
        request.options.credential = Credential.bearer("t0k3n")
        #expect(try await Client(transport: transport).send(request).text() == "welcome")
        #expect(Credential.bearer("t0k3n").description == "<redacted>")
    }

    @Test func ntlmHandshakeStaysOnTheChallengedConnection() async throws {
        let contexts = Mutex<[UInt64?]>([])
        let transport = ScriptedTransport { request, context in
            contexts.withLock { $0.append(context.preferredConnectionID) }
            var fields = HTTPFields()
            let value = request.headerFields[.authorization] ?? ""
            if value.hasPrefix("NTLM TlRMTVNTUAAB") {
                var challenge = NTLMMessages.signature + [2, 0, 0, 0] + [0, 0, 0, 0, 48, 0, 0, 0]
                challenge += NTLMMessages.le32(0xA208_8205) + [UInt8](repeating: 1, count: 8)
                challenge += [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 48, 0, 0, 0]
                fields[.wwwAuthenticate] = "NTLM " + Data(challenge).base64EncodedString()
                return Response(status: .unauthorized, headerFields: fields, connectionID: 7)
            }
            if value.hasPrefix("NTLM TlRMTVNTUAAD") { return .text("welcome") }
            fields[.wwwAuthenticate] = "NTLM"
            return Response(status: .unauthorized, headerFields: fields, connectionID: 7)
        }
        var request = Request("http://a.example/")
        request.options.credential = Credential(user: "DOMAIN\\user", password: "pw")
        #expect(try await Self.client(transport).send(request).text() == "welcome")
        #expect(contexts.withLock { $0 } == [nil, 7, 7])
    }

    @Test func aQueueOfRequestsAsksTheHandlerOnce() async throws {
        let transport = ScriptedTransport { request, _ in
            if request.headerFields[.authorization] == "Basic " + "alice:wonderland".base64 {
                return .text("welcome")
            }
            var fields = HTTPFields()
            fields[.wwwAuthenticate] = "Basic realm=\"api\""
            return .text("denied", status: 401, headerFields: fields)
        }
        let asked = Mutex(0)
        let client = Self.client(transport) { _ in
            asked.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(20))
            return Credential(user: "alice", password: "wonderland")
        }
        let texts = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<8 { group.addTask { try await client.send(Request("http://a.example/\(index)")).text() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(texts == Array(repeating: "welcome", count: 8))
        #expect(asked.withLock { $0 } == 1)
    }

    @Test func clearSessionDropsServerAndProxyCredentialsAndNegotiations() async throws {
        let transport = Self.digestServer()
        let credentials = SessionCredentialStore()
        let client = Client(transport: transport, credentials: credentials, authenticators: [DigestAuthenticator()])
        var request = Request("http://a.example/")
        request.options.credential = Credential(user: Self.user, password: Self.password)
        _ = try await client.send(request)
        let proxy = CredentialScope(proxy: .http(host: "proxy", port: 3128))
        await credentials.save(Credential(user: "p", password: "q"), for: proxy)
        try await client.clearSession()
        #expect(await credentials.credential(for: proxy) == nil)
        let error = await #expect(throws: ClientError.self) { try await client.send(Request("http://a.example/")) }
        #expect(error?.code == .authenticationFailed)  // nothing is sent up front any more
        #expect(transport.requests.last?.headerFields[.authorization] == nil)
    }
}

extension Request {
    init(_ string: String) {
        self.init(url: URL(string: string)!)
    }
}

extension String {
    var base64: String { Data(utf8).base64EncodedString() }
}
