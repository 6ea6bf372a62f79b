import HTTPCore
import HTTPPipeline
import Testing

@testable import HTTPAuthentication

/// squid's `ntlm_fake_auth` sends a short CHALLENGE_MESSAGE without NEGOTIATE_TARGET_INFO, whose bytes after the
/// reserved field are the target name, not target-info fields; it must still be accepted.
@Suite struct NTLMSquidTokenTests {
    @Test func squidsFakeChallengeIsAccepted() throws {
        let value = "NTLM TlRMTVNTUAACAAAACQAJAK6qqqoHggigM7lJqyMrv6kAAAAAAAA6AFdPUktHUk9VUA=="
        let challenge = try #require(ChallengeParser.challenges(in: [value]).first)
        #expect(challenge.token68 == "TlRMTVNTUAACAAAACQAJAK6qqqoHggigM7lJqyMrv6kAAAAAAAA6AFdPUktHUk9VUA==")
        let negotiation = NTLMNegotiation(credential: Credential(user: "d\\u", password: "p"), workstation: "")
        _ = try negotiation.authorization(for: AuthenticatedRequest(method: "GET", target: "/"))
        #expect(negotiation.proceed(after: challenge) == .continue)
    }
}
