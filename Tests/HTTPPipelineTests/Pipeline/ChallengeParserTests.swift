import HTTPCore
import HTTPPipeline
import Testing

@Suite struct ChallengeParserTests {
    @Test func parsesSeveralChallengesAndParameters() {
        let challenges = ChallengeParser.challenges(in: [
            #"Digest realm="a, b", nonce="x\"y", qop="auth", Basic realm=plain"#,
            "Negotiate abc==",
            "NTLM",
        ])
        #expect(challenges.map(\.scheme.name) == ["Digest", "Basic", "Negotiate", "NTLM"])
        #expect(challenges[0].parameters == ["realm": "a, b", "nonce": "x\"y", "qop": "auth"])
        #expect(challenges[1].parameters == ["realm": "plain"])
        #expect(challenges[2].token68 == "abc==")
        #expect(challenges[3].parameters.isEmpty && challenges[3].token68 == nil)
    }

    @Test func schemeNamesCompareCaseInsensitively() {
        #expect(ChallengeParser.challenges(in: ["basic realm=x"]).first?.scheme == .basic)
    }
}
