import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@testable import HTTPAuthentication

/// What the pipeline does with an NTLM login after it succeeded: later requests, redirects and proxy hops.
@Suite struct NTLMSessionTests {
    /// A CHALLENGE_MESSAGE with no target info, as `NTLM <base64>`.
    static let challengeValue: String = {
        var challenge = NTLMMessages.signature + [2, 0, 0, 0] + [0, 0, 0, 0, 48, 0, 0, 0]
        challenge += NTLMMessages.le32(0xA208_8205) + [UInt8](repeating: 1, count: 8)
        challenge += [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 48, 0, 0, 0]
        return "NTLM " + Data(challenge).base64EncodedString()
    }()

    /// An NTLM server on connection 7: NEGOTIATE gets the challenge, AUTHENTICATE the page, anything else a bare
    /// `NTLM` challenge (so a Basic answer is refused, as a real NTLM-only server does).
    static func server(page: @escaping @Sendable (Request) -> Response = { _ in .text("welcome") })
        -> ScriptedTransport
    {
        ScriptedTransport { request, _ in
            var fields = HTTPFields()
            let value = request.headerFields[.authorization] ?? ""
            if value.hasPrefix("NTLM TlRMTVNTUAAD") { return page(request) }
            fields[.wwwAuthenticate] = value.hasPrefix("NTLM TlRMTVNTUAAB") ? challengeValue : "NTLM"
            return Response(status: .unauthorized, headerFields: fields, connectionID: 7)
        }
    }

    static func client(_ transport: ScriptedTransport) -> Client {
        Client(transport: transport, authenticators: [DigestAuthenticator(), NTLMAuthenticator()])
    }

    @Test func aStoredNTLMCredentialIsNeverSentUpFrontAsBasic() async throws {
        let transport = Self.server()
        let client = Self.client(transport)
        var request = Request("http://a.example/")
        request.options.credential = Credential(user: "DOMAIN\\user", password: "pw")
        #expect(try await client.send(request).text() == "welcome")

        // The session store now holds the credential; the next request waits for the challenge and answers it
        // with NTLM from the store, never with the password in a Basic header.
        #expect(try await client.send(Request("http://a.example/other")).text() == "welcome")
        let values = transport.requests.map { $0.headerFields[.authorization] ?? "-" }
        #expect(!values.contains { $0.hasPrefix("Basic ") })
        #expect(values.suffix(3).map { String($0.prefix(17)) } == ["-", "NTLM TlRMTVNTUAAB", "NTLM TlRMTVNTUAAD"])
    }

    @Test func aCredentialBasicAcceptedStillGoesUpFront() async throws {
        let transport = ScriptedTransport { request, _ in
            if request.headerFields[.authorization] == "Basic " + "alice:wonderland".base64 { return .text("welcome") }
            var fields = HTTPFields()
            fields[.wwwAuthenticate] = "Basic realm=\"api\""
            return .text("denied", status: 401, headerFields: fields)
        }
        let client = Self.client(transport)
        var request = Request("http://a.example/")
        request.options.credential = Credential(user: "alice", password: "wonderland")
        #expect(try await client.send(request).text() == "welcome")
        #expect(try await client.send(Request("http://a.example/other")).text() == "welcome")
        #expect(transport.requests.count == 3)
        #expect(transport.requests[2].headerFields[.authorization] == "Basic " + "alice:wonderland".base64)
    }

    /// `/start` redirects to `/next` on the same server.
    static let redirecting: @Sendable (Request) -> Response = { request in
        guard request.url.path() == "/start" else { return .text("welcome") }
        var fields = HTTPFields()
        fields[.location] = "/next"
        return Response(status: .found, headerFields: fields)
    }

    @Test func aRedirectAfterNTLMGoesOnTheAuthenticatedConnectionWithoutAnotherHandshake() async throws {
        // Like IIS: connection 7, once authenticated, serves any request; a NEGOTIATE there starts over.
        let authenticated = Mutex(false)
        let transport = ScriptedTransport { request, context in
            let value = request.headerFields[.authorization] ?? ""
            if value.isEmpty, context.preferredConnectionID == 7, authenticated.withLock({ $0 }) {
                return Self.redirecting(request)
            }
            if value.hasPrefix("NTLM TlRMTVNTUAAD") {
                authenticated.withLock { $0 = true }
                return Self.redirecting(request)
            }
            authenticated.withLock { $0 = false }
            var fields = HTTPFields()
            fields[.wwwAuthenticate] = value.hasPrefix("NTLM TlRMTVNTUAAB") ? Self.challengeValue : "NTLM"
            return Response(status: .unauthorized, headerFields: fields, connectionID: 7)
        }
        var request = Request("http://a.example/start")
        request.options.credential = Credential(user: "DOMAIN\\user", password: "pw")
        #expect(try await Self.client(transport).send(request).text() == "welcome")
        #expect(transport.requests.count == 4)
        #expect(transport.requests.last?.headerFields[.authorization] == nil)
    }

    @Test func aRedirectThatLostTheConnectionStartsANewHandshakeWithTheSameCredential() async throws {
        let transport = Self.server(page: Self.redirecting)
        let asked = Mutex(0)
        let client = Client(
            transport: transport, authenticators: [NTLMAuthenticator()],
            configuration: Client.Configuration(authenticationHandler: { _ in
                asked.withLock { $0 += 1 }
                return Credential(user: "DOMAIN\\user", password: "pw")
            }))
        #expect(try await client.send(Request("http://a.example/start")).text() == "welcome")
        #expect(asked.withLock { $0 } == 1)
        let values = transport.requests.map { String(($0.headerFields[.authorization] ?? "-").prefix(17)) }
        #expect(values == ["-", "NTLM TlRMTVNTUAAB", "NTLM TlRMTVNTUAAD",
                           "-", "NTLM TlRMTVNTUAAB", "NTLM TlRMTVNTUAAD"])
    }

    @Test func aRedirectThroughAnNTLMProxyKeepsTheAuthenticatedConnection() async throws {
        let proxy = ProxyRoute.http(host: "proxy.example", port: 3128)
        let authenticated = Mutex(false)
        let transport = ScriptedTransport { request, context in
            let value = context.proxyAuthorization?.value ?? ""
            var response: Response
            if value.isEmpty, context.preferredConnectionID == 7, authenticated.withLock({ $0 }) {
                response = Self.redirecting(request)
            } else if value.hasPrefix("NTLM TlRMTVNTUAAD") {
                authenticated.withLock { $0 = true }
                response = Self.redirecting(request)
            } else {
                authenticated.withLock { $0 = false }
                var fields = HTTPFields()
                fields[.proxyAuthenticate] = value.hasPrefix("NTLM TlRMTVNTUAAB") ? Self.challengeValue : "NTLM"
                response = Response(status: .proxyAuthenticationRequired, headerFields: fields, connectionID: 7)
                response.isFromProxy = true
            }
            response.route = proxy
            return response
        }
        var request = Request("http://a.example/start")
        request.options.proxyCredential = Credential(user: "DOMAIN\\user", password: "pw")
        #expect(try await Self.client(transport).send(request).text() == "welcome")
        #expect(transport.requests.count == 4)
    }
}
