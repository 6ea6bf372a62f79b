import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

/// Persistence intent: the persistent store (ASIHTTPRequest's Keychain) is read, written and cleaned only for
/// requests that ask (`usesPersistentCredentialStore`), and a rejection never destroys a credential that did not
/// come from it.
@Suite struct CredentialPersistenceTests {
    static let alice = Credential(user: "alice", password: "wonderland")
    static let old = Credential(user: "alice", password: "old")
    static let scope = CredentialScope(scheme: "http", host: "a.example", port: 80, realm: ChallengeLoopTests.realm)

    /// A persistent store already holding `credential` for ``scope``, recording only what the pipeline does.
    static func persistent(holding credential: Credential?) async -> RecordingCredentialStore {
        let base = SessionCredentialStore()
        if let credential { await base.save(credential, for: scope) }
        return RecordingCredentialStore(base: base)
    }

    static func isSave(_ call: RecordingCredentialStore.Call) -> Bool {
        if case .save = call { true } else { false }
    }

    static func isRemove(_ call: RecordingCredentialStore.Call) -> Bool {
        if case .remove = call { true } else { false }
    }

    @Test func persistentStoreIsUntouchedUnlessAsked() async throws {
        let persistent = await Self.persistent(holding: Self.alice)
        let client = Client(transport: ChallengeLoopTests.server(), persistentCredentials: persistent)
        await #expect(throws: ClientError.self) { try await client.send(Request("http://a.example/")) }
        var request = Request("http://a.example/")
        request.options.credential = Self.alice
        #expect(try await client.send(request).text() == "welcome")
        #expect(persistent.calls.isEmpty)
    }

    @Test func persistentStoreAnswersAChallengeWhenAsked() async throws {
        let persistent = await Self.persistent(holding: Self.alice)
        let session = RecordingCredentialStore()
        let transport = ChallengeLoopTests.server()
        let client = Client(transport: transport, credentials: session, persistentCredentials: persistent)
        var request = Request("http://a.example/")
        request.options.usesPersistentCredentialStore = true
        #expect(try await client.send(request).text() == "welcome")
        #expect(transport.requests.first?.headerFields[.authorization] == nil)  // never sent pre-emptively
        #expect(persistent.calls == [.lookup(Self.scope)])  // found there: not saved back
        #expect(session.calls.contains(.save(Self.scope)))  // and remembered for the session (ASI's order)
    }

    @Test func earlierSourcesComeBeforeThePersistentStore() async throws {
        let persistent = await Self.persistent(holding: Self.old)
        let client = Client(transport: ChallengeLoopTests.server(), persistentCredentials: persistent)
        var request = Request("http://alice:wonderland@a.example/")
        request.options.usesPersistentCredentialStore = true
        #expect(try await client.send(request).text() == "welcome")
        #expect(!persistent.calls.contains(.lookup(Self.scope)))
        #expect(persistent.calls.contains(.save(Self.scope)))  // the URL's credential worked and was asked to persist
    }

    @Test func aRejectedSessionCredentialNeverRemovesThePersistentOne() async throws {
        let persistent = await Self.persistent(holding: Self.old)
        let session = SessionCredentialStore()
        await session.save(Self.old, for: Self.scope)
        let configuration = Client.Configuration(authenticationHandler: { _ in Self.alice })
        let transport = ChallengeLoopTests.server()
        let client = Client(transport: transport, credentials: session, persistentCredentials: persistent,
                            configuration: configuration)
        var request = Request("http://a.example/")
        request.options.usesPersistentCredentialStore = true
        #expect(try await client.send(request).text() == "welcome")
        #expect(transport.requests.first?.headerFields[.authorization] == "Basic " + "alice:old".base64)
        #expect(await session.credential(for: Self.scope) == Self.alice)  // the rejected one left the session
        #expect(persistent.calls.contains(.lookup(Self.scope)))  // asked, but its answer was already rejected
        #expect(!persistent.calls.contains(where: Self.isRemove))
    }

    @Test func aRejectedPersistentCredentialIsRemovedWhenAsked() async throws {
        let persistent = await Self.persistent(holding: Self.old)
        let configuration = Client.Configuration(authenticationHandler: { _ in Self.alice })
        let client = Client(transport: ChallengeLoopTests.server(), persistentCredentials: persistent,
                            configuration: configuration)
        var request = Request("http://a.example/")
        request.options.usesPersistentCredentialStore = true
        #expect(try await client.send(request).text() == "welcome")
        #expect(persistent.calls.contains(.remove(Self.scope)))
        #expect(try await persistent.credential(for: Self.scope) == Self.alice)  // the handler's answer, saved
    }

    @Test func savingGoesToThePersistentStoreOnlyWhenAsked() async throws {
        let persistent = await Self.persistent(holding: nil)
        let session = RecordingCredentialStore()
        let client = Client(transport: ChallengeLoopTests.server(), credentials: session,
                            persistentCredentials: persistent)
        var request = Request("http://a.example/")
        request.options.credential = Self.alice
        request.options.usesCredentialStore = false
        #expect(try await client.send(request).text() == "welcome")
        #expect(persistent.calls.isEmpty)
        #expect(session.calls.isEmpty)

        request.options.usesPersistentCredentialStore = true
        #expect(try await client.send(request).text() == "welcome")
        #expect(persistent.calls.filter(Self.isSave) == [.save(Self.scope)])
        #expect(session.calls.isEmpty)  // the session store stays out when the request opts out of it
    }

    @Test func proxyCredentialsFollowTheSameIntent() async throws {
        let persistent = await Self.persistent(holding: nil)
        let client = Client(transport: ProxyChallengeTests.proxied(attempts: .init()),
                            persistentCredentials: persistent)
        var request = Request("http://a.example/")
        request.options.proxyCredential = ProxyChallengeTests.good
        #expect(try await client.send(request).text() == "welcome")
        #expect(persistent.calls.isEmpty)

        request.options.usesPersistentCredentialStore = true
        request.options.usesCredentialStore = false  // so the 407 is answered again, and the answer saved
        #expect(try await client.send(request).text() == "welcome")
        #expect(persistent.calls.filter(Self.isSave) == [.save(ProxyChallengeTests.proxyScope)])
    }
}

/// A credential accepted for one realm and then rejected by another realm of the same origin (after a redirect)
/// stays stored for the realm that accepted it.
@Suite struct AcceptedCredentialSurvivesAnotherRealmTests {
    @Test func aRejectionInRealmBKeepsTheCredentialOfRealmA() async throws {
        let alice = Credential(user: "alice", password: "wonderland")
        let good = "Basic " + "alice:wonderland".base64
        let transport = ScriptedTransport { request, _ in
            var fields = HTTPFields()
            if request.url.path() == "/a" {
                if request.headerFields[.authorization] == good { return Response.redirect(302, to: "/b") }
                fields[.wwwAuthenticate] = "Basic realm=\"A\""
            } else {
                fields[.wwwAuthenticate] = "Basic realm=\"B\""
            }
            return Response(status: .unauthorized, headerFields: fields)
        }
        let store = SessionCredentialStore()
        var request = Request("http://a.example/a")
        request.options.credential = alice
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: transport, credentials: store).send(request)
        }
        #expect(error?.code == .authenticationFailed)
        let realmA = CredentialScope(scheme: "http", host: "a.example", port: 80, realm: "A")
        #expect(await store.credential(for: realmA) == alice)
    }
}
