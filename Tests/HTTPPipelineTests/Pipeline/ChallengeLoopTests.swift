import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

@Suite struct ChallengeLoopTests {
    static let good = "Basic " + "alice:wonderland".base64   // what the server accepts
    static let realm = "Protected"

    /// A server that wants alice:wonderland in realm "Protected" on every path.
    static func server() -> ScriptedTransport {
        ScriptedTransport { request, _ in
            if request.headerFields[.authorization] == good { return .text("welcome") }
            var fields = HTTPFields()
            fields[.wwwAuthenticate] = "Basic realm=\"\(realm)\", charset=\"UTF-8\""
            return .text("denied", status: 401, headerFields: fields)
        }
    }

    @Test func noCredentialsFailsWithAuthenticationError() async throws {
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: Self.server()).send(Request("http://a.example/"))
        }
        #expect(error?.code == .authenticationFailed)
        #expect(error?.code.asiErrorType == 3)
    }

    @Test func requestCredentialsAnswerTheChallengeAndAreRemembered() async throws {
        let transport = Self.server()
        let store = RecordingCredentialStore()
        let client = Client(transport: transport, credentials: store)
        var request = Request("http://a.example/private")
        request.options.credential = Credential(user: "alice", password: "wonderland")
        #expect(try await client.send(request).text() == "welcome")
        #expect(transport.requests.count == 2)
        #expect(transport.requests[0].headerFields[.authorization] == nil)  // scheme not set: wait for a challenge
        #expect(transport.requests[1].headerFields[.authorization] == Self.good)
        let scope = CredentialScope(scheme: "http", host: "a.example", port: 80, realm: Self.realm)
        #expect(store.calls.contains(.save(scope)))

        // A later request to the same server sends the stored credential before any challenge.
        #expect(try await client.send(Request("http://a.example/other")).text() == "welcome")
        #expect(transport.requests.count == 3)
        #expect(transport.requests[2].headerFields[.authorization] == Self.good)
    }

    @Test func explicitBasicSchemeSendsBeforeChallenge() async throws {
        let transport = Self.server()
        var request = Request("http://a.example/")
        request.options.credential = Credential(user: "alice", password: "wonderland")
        request.options.authenticationScheme = .basic
        #expect(try await Client(transport: transport).send(request).text() == "welcome")
        #expect(transport.requests.count == 1)
    }

    @Test func presentingBeforeChallengeCanBeTurnedOff() async throws {
        let transport = Self.server()
        let credentials = SessionCredentialStore()
        await credentials.save(Credential(user: "alice", password: "wonderland"),
                                   for: CredentialScope(scheme: "http", host: "a.example", port: 80))
        var request = Request("http://a.example/")
        request.options.presentsCredentialsBeforeChallenge = false
        #expect(try await Client(transport: transport, credentials: credentials).send(request).text() == "welcome")
        #expect(transport.requests.count == 2)
        #expect(transport.requests[0].headerFields[.authorization] == nil)
    }

    @Test func urlCredentialsAreUsedWhenChallenged() async throws {
        let transport = Self.server()
        #expect(try await Client(transport: transport).send(Request("http://alice:wonderland@a.example/")).text()
            == "welcome")
    }

    @Test func rejectedStoredCredentialIsRemovedAndTheNextSourceTried() async throws {
        let transport = Self.server()
        let store = RecordingCredentialStore()
        let scope = CredentialScope(scheme: "http", host: "a.example", port: 80, realm: Self.realm)
        try await store.save(Credential(user: "alice", password: "old"), for: scope)
        let request = Request("http://alice:wonderland@a.example/")
        #expect(try await Client(transport: transport, credentials: store).send(request).text() == "welcome")
        #expect(transport.requests.first?.headerFields[.authorization] == "Basic " + "alice:old".base64)
        #expect(store.calls.contains(.remove(scope)))
        #expect(try await store.credential(for: scope) == Credential(user: "alice", password: "wonderland"))
    }

    @Test func explicitCredentialsOverrideADifferentStoredOne() async throws {
        let transport = Self.server()
        let store = SessionCredentialStore()
        await store.save(Credential(user: "alice", password: "old"),
                         for: CredentialScope(scheme: "http", host: "a.example", port: 80, realm: Self.realm))
        var request = Request("http://a.example/")
        request.options.credential = Credential(user: "alice", password: "wonderland")
        #expect(try await Client(transport: transport, credentials: store).send(request).text() == "welcome")
        #expect(transport.requests.map { $0.headerFields[.authorization] } == [nil, Self.good])
    }

    @Test func handlerIsAskedWithTheChallengeUntilItGivesUp() async throws {
        let asked = HopRecorder()
        let configuration = Client.Configuration(authenticationHandler: { challenge in
            asked.append("\(challenge.realm ?? "-") \(challenge.failureCount)")
            return challenge.failureCount == 0 ? Credential(user: "alice", password: "wrong") : nil
        })
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: Self.server(), configuration: configuration).send(Request("http://a.example/"))
        }
        #expect(error?.code == .authenticationFailed)
        #expect(asked.values == ["Protected 0", "Protected 1"])
    }

    @Test func handlerCredentialsWork() async throws {
        let configuration = Client.Configuration(authenticationHandler: { _ in
            Credential(user: "alice", password: "wonderland")
        })
        let response = try await Client(transport: Self.server(), configuration: configuration)
            .send(Request("http://a.example/"))
        #expect(response.text() == "welcome")
    }

    @Test func unsupportedSchemeFails() async throws {
        let transport = ScriptedTransport { _, _ in
            var fields = HTTPFields()
            fields[.wwwAuthenticate] = "Negotiate realm=\"api\""
            return .text("no", status: 401, headerFields: fields)
        }
        var request = Request("http://a.example/")
        request.options.credential = Credential(user: "u", password: "p")
        let error = await #expect(throws: ClientError.self) { try await Client(transport: transport).send(request) }
        #expect(error?.code == .authenticationFailed)
        #expect(error?.description.contains("Negotiate") == true)
    }

    @Test func errorsNeverShowThePassword() async throws {
        var request = Request("http://alice:topsecret@a.example/")
        request.options.credential = Credential(user: "bob", password: "topsecret2")
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: ScriptedTransport { _, _ in
                var fields = HTTPFields()
                fields[.wwwAuthenticate] = "Basic realm=\"x\""
                return .text("", status: 401, headerFields: fields)
            }).send(request)
        }
        #expect(error.map { !"\($0)".contains("topsecret") } == true)
        #expect("\(Credential(user: "a", password: "topsecret"))" == "<redacted>")
    }
}

extension String {
    var base64: String { Data(utf8).base64EncodedString() }
}
