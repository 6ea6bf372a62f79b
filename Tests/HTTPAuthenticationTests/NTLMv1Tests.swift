import FoundationEssentials
import HTTPCore
import HTTPPipeline
import Testing

@testable import HTTPAuthentication

/// NTLMv1, sent only when allowed and only to a server whose CHALLENGE has no target info. Known answers from
/// [MS-NLMP] §4.2.2 (NTLMv1) and §4.2.3 (NTLMv1 with extended session security), with the §4.2.1 inputs
/// (password `Password`, server challenge 0123456789abcdef, client challenge aaaaaaaaaaaaaaaa), and from curl's
/// test 69 (`testuser:testpass`, server challenge 739d406150e0c8d7, ../shared/corpora/auth/curl-tests/test69).
@Suite struct NTLMv1Tests {
    static let bytes = NTLMVectorTests.bytes

    @Test func hashesAndResponsesMatchMSNLMP() throws {
        #expect(Hashing.hex(NTLMv1.lmowfv1(password: "Password")) == "e52cac67419a9a224a3b108f3fa6cb6d")
        let server = Self.bytes("0123456789abcdef"), client = Self.bytes("aaaaaaaaaaaaaaaa")
        let plain = try NTLMv1.responses(password: "Password", serverChallenge: server, clientChallenge: client,
                                         extendedSessionSecurity: false)
        #expect(Hashing.hex(plain.ntChallengeResponse) == "67c43011f30298a2ad35ece64f16331c44bdbed927841f94")
        #expect(Hashing.hex(plain.lmChallengeResponse) == "98def7b87f88aa5dafe2df779688a172def11c7d5ccdef13")
        let session = try NTLMv1.responses(password: "Password", serverChallenge: server, clientChallenge: client,
                                           extendedSessionSecurity: true)
        #expect(Hashing.hex(session.ntChallengeResponse) == "7537f803ae367128ca458204bde7caf81e97ed2683267232")
        #expect(Hashing.hex(session.lmChallengeResponse) == "aaaaaaaaaaaaaaaa" + String(repeating: "00", count: 16))
    }

    /// curl's test 69 as a whole: its NEGOTIATE, and the AUTHENTICATE it expects for the server's CHALLENGE
    /// (OEM strings, the server's flags, workstation `WORKSTATION`), byte for byte.
    @Test func aLegacyServerGetsCurlsMessages() throws {
        let negotiation = NTLMNegotiation(credential: Credential(user: "testuser", password: "testpass"),
                                          workstation: "WORKSTATION", allowsNTLMv1: true)
        let request = AuthenticatedRequest(method: "GET", target: "/69")
        #expect(try negotiation.authorization(for: request) == "NTLM TlRMTVNTUAABAAAABoIIAAAAAAAAAAAAAAAAAAAAAAA=")
        #expect(negotiation.proceed(after: try Self.challenge(Self.curlChallenge)) == .continue)
        #expect(try negotiation.authorization(for: request) == "NTLM " + Self.curlAuthenticate)
    }

    /// Without the opt-in the same legacy server gets NTLMv2 (which it cannot check), never NTLMv1.
    @Test func withoutTheOptInALegacyServerGetsNTLMv2() throws {
        let negotiation = NTLMNegotiation(credential: Credential(user: "testuser", password: "testpass"),
                                          workstation: "WORKSTATION")
        let request = AuthenticatedRequest(method: "GET", target: "/69")
        _ = try negotiation.authorization(for: request)
        #expect(negotiation.proceed(after: try Self.challenge(Self.curlChallenge)) == .continue)
        let type3 = try Self.decode(try negotiation.authorization(for: request))
        #expect(NTLMMessages.readUInt16(type3, at: 20) > 24)  // an NTLMv2 response, not 24 bytes of NTLMv1
        #expect(NTLMMessages.readUInt32(type3, at: 60) & NTLMMessages.unicodeFlag == 0)  // the server chose OEM
    }

    /// With the opt-in, a server that sends target info still gets NTLMv2.
    @Test func aServerWithTargetInfoStillGetsNTLMv2() throws {
        let negotiation = NTLMNegotiation(credential: Credential(user: "Domain\\User", password: "Password"),
                                          workstation: "", allowsNTLMv1: true)
        let request = AuthenticatedRequest(method: "GET", target: "/")
        _ = try negotiation.authorization(for: request)
        #expect(negotiation.proceed(after: try Self.challengeWithTargetInfo(flags: 0xE28A_8233)) == .continue)
        let type3 = try Self.decode(try negotiation.authorization(for: request))
        #expect(NTLMMessages.readUInt16(type3, at: 20) > 24)
    }

    /// With NTLMv1 allowed, the NEGOTIATE offers OEM only; a server that sends target info and picks OEM gets an
    /// NTLMv2 answer in OEM strings, its flag kept (no Unicode claimed that was not agreed).
    @Test func anOEMServerWithTargetInfoGetsNTLMv2InOEM() throws {
        let negotiation = NTLMNegotiation(credential: Credential(user: "Domain\\User", password: "Password"),
                                          workstation: "W", allowsNTLMv1: true)
        let request = AuthenticatedRequest(method: "GET", target: "/")
        _ = try negotiation.authorization(for: request)
        let oemWithTargetInfo = try Self.challengeWithTargetInfo(flags: 0x0088_8206)
        #expect(negotiation.proceed(after: oemWithTargetInfo) == .continue)
        let type3 = try Self.decode(try negotiation.authorization(for: request))
        #expect(NTLMMessages.readUInt16(type3, at: 20) > 24)  // NTLMv2
        #expect(NTLMMessages.readUInt32(type3, at: 60) & NTLMMessages.unicodeFlag == 0)
        let userOffset = Int(NTLMMessages.readUInt32(type3, at: 40))
        #expect(Array(type3[userOffset..<userOffset + 4]) == Array("User".utf8))
    }

    static let curlChallenge = "NTLM TlRMTVNTUAACAAAAAgACADAAAACGggEAc51AYVDgyNcAAAAAAAAAAG4AbgAyAAAAQ0MCAAQAQwBDAAEAEgBF"
        + "AEwASQBTAEEAQgBFAFQASAAEABgAYwBjAC4AaQBjAGUAZABlAHYALgBuAHUAAwAsAGUAbABpAHMAYQBiAGUAdABoAC4AYwBjAC4AaQBj"
        + "AGUAZABlAHYALgBuAHUAAAAAAA=="
    static let curlAuthenticate = "TlRMTVNTUAADAAAAGAAYAEAAAAAYABgAWAAAAAAAAABwAAAACAAIAHAAAAALAAsAeAAAAAAAAAAAAAAA"
        + "hoIBAFpkQwKRCZFMhjj0tw47wEjKHRHlvzfxQamFcheMuv8v+xeqphEO5V41xRd7R9deOXRlc3R1c2VyV09SS1NUQVRJT04="

    /// A CHALLENGE_MESSAGE with MS-NLMP §4.2.1's server challenge and target info, and these flags.
    static func challengeWithTargetInfo(flags: UInt32) throws -> HTTPChallenge {
        let info = NTLMVectorTests.targetInfo
        var message = NTLMMessages.signature + [2, 0, 0, 0] + [0, 0, 0, 0, 48, 0, 0, 0]
        message += NTLMMessages.le32(flags) + bytes("0123456789abcdef") + [UInt8](repeating: 0, count: 8)
        message += NTLMMessages.le16(UInt16(info.count)) + NTLMMessages.le16(UInt16(info.count))
        message += NTLMMessages.le32(48) + info
        return try challenge("NTLM " + Data(message).base64EncodedString())
    }

    static func challenge(_ value: String) throws -> HTTPChallenge {
        try #require(ChallengeParser.challenges(in: [value]).first)
    }

    static func decode(_ value: String) throws -> [UInt8] {
        Array(try #require(Data(base64Encoded: String(value.dropFirst(5)))))
    }
}
