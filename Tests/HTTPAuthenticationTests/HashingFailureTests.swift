import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

@testable import HTTPAuthentication

/// What happens when OpenSSL refuses a digest (MD5 under FIPS) or a server's NTLM challenge would make a message
/// field too long: typed errors and another offered scheme, never a crash.
@Suite struct HashingFailureTests {
    /// A server offering `schemes` that accepts only Basic `u:p`.
    static func server(offering schemes: [String]) -> ScriptedTransport {
        ScriptedTransport { request, _ in
            if request.headerFields[.authorization] == "Basic " + "u:p".base64 { return .text("welcome") }
            var fields = HTTPFields()
            for scheme in schemes { fields.append(HTTPField(name: .wwwAuthenticate, value: scheme)) }
            return .text("denied", status: 401, headerFields: fields)
        }
    }

    @Test func aRefusedDigestThrowsInsteadOfCrashing() {
        let error = #expect(throws: ClientError.self) { try Hashing.digest(nil, [1, 2, 3], name: "none") }
        #expect(error?.code == .authenticationFailed)
        #expect(Hashing.isAvailable(.sha256))
    }

    @Test func digestWithARefusedHashLeavesTheChallengeToBasic() async throws {
        var digest = DigestAuthenticator()
        digest.isAvailable = { $0 != .md5 }
        let transport = Self.server(offering: ["Digest realm=\"r\", nonce=\"n\"", "Basic realm=\"r\""])
        var request = Request("http://a.example/")
        request.options.credential = Credential(user: "u", password: "p")
        #expect(try await Client(transport: transport, authenticators: [digest]).send(request).text() == "welcome")
        #expect(transport.requests.count == 2)
    }

    @Test func ntlmWithoutMD5LeavesTheChallengeToBasic() async throws {
        var ntlm = NTLMAuthenticator()
        ntlm.isAvailable = { $0 != .md5 }
        let transport = Self.server(offering: ["NTLM", "Basic realm=\"r\""])
        var request = Request("http://a.example/")
        request.options.credential = Credential(user: "u", password: "p")
        #expect(try await Client(transport: transport, authenticators: [ntlm]).send(request).text() == "welcome")
        #expect(transport.requests.count == 2)
    }

    @Test(arguments: [(65_500, "user"), (0, String(repeating: "u", count: 40_000))])
    func anOversizedAuthenticateFieldIsATypedError(targetInfoLength: Int, user: String) throws {
        let negotiation = NTLMNegotiation(credential: Credential(user: user, password: "pw"), workstation: "")
        let request = AuthenticatedRequest(method: "GET", target: "/")
        _ = try negotiation.authorization(for: request)
        var challenge = NTLMMessages.signature + [2, 0, 0, 0] + [0, 0, 0, 0, 48, 0, 0, 0]
        challenge += NTLMMessages.le32(0xA288_8205) + [UInt8](repeating: 1, count: 8) + [UInt8](repeating: 0, count: 8)
        let length = UInt16(targetInfoLength)
        challenge += NTLMMessages.le16(length) + NTLMMessages.le16(length) + NTLMMessages.le32(48)
        challenge += [UInt8](repeating: 0x41, count: targetInfoLength)
        let token = Data(challenge).base64EncodedString()
        #expect(negotiation.proceed(after: HTTPChallenge(scheme: .ntlm, token68: token)) == .continue)
        let error = #expect(throws: ClientError.self) { try negotiation.authorization(for: request) }
        #expect(error?.code == .authenticationFailed)
    }
}
