import FoundationEssentials
import HTTPCore
import Testing

@testable import HTTPAuthentication

/// Known answers for the library's own NTLMv2 code. Values from ../shared/corpora/auth/vectors.json, which cites
/// [MS-NLMP] §4.2.4 with the §4.2.1 inputs (user `User`, domain `Domain`, password `Password`, server challenge
/// 0123456789abcdef, client challenge aaaaaaaaaaaaaaaa, time 0); MD4's from RFC 1320 §A.5.
@Suite struct NTLMVectorTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    static let targetInfo = bytes("02000c0044006f006d00610069006e0001000c0053006500720076006500720000000000")

    @Test func md4MatchesRFC1320() {
        #expect(Hashing.hex(MD4.hash([])) == "31d6cfe0d16ae931b73c59d7e0c089c0")
        #expect(Hashing.hex(MD4.hash(Array("abc".utf8))) == "a448017aaf21d8525fc10ae87aa6729d")
        let digits = String(repeating: "1234567890", count: 8)
        #expect(Hashing.hex(MD4.hash(Array(digits.utf8))) == "e33b4ddc9c38f2199c3e7b164fcc0536")
    }

    @Test func hashesMatchMSNLMP() throws {
        #expect(Hashing.hex(NTLMv2.ntowfv1(password: "Password")) == "a4f49c406510bdcab6824ee7c30fd852")
        #expect(Hashing.hex(try NTLMv2.ntowfv2(user: "User", password: "Password", domain: "Domain"))
            == "0c868a403bfd7a93a3001ef22ef02e3f")
    }

    @Test func responsesMatchMSNLMP() throws {
        let key = try NTLMv2.ntowfv2(user: "User", password: "Password", domain: "Domain")
        let responses = try NTLMv2.responses(key: key, serverChallenge: Self.bytes("0123456789abcdef"),
                                         clientChallenge: Self.bytes("aaaaaaaaaaaaaaaa"), time: 0,
                                         targetInfo: Self.targetInfo)
        let temp = "01010000000000000000000000000000aaaaaaaaaaaaaaaa0000000002000c0044006f006d00610069006e000100"
            + "0c005300650072007600650072000000000000000000"
        #expect(Hashing.hex(NTLMv2.temp(time: 0, clientChallenge: Self.bytes("aaaaaaaaaaaaaaaa"),
                                        targetInfo: Self.targetInfo)) == temp)
        #expect(Hashing.hex(responses.ntProofStr) == "68cd0ab851e51c96aabc927bebef6a1c")
        #expect(Hashing.hex(responses.ntChallengeResponse) == "68cd0ab851e51c96aabc927bebef6a1c" + temp)
        #expect(Hashing.hex(responses.lmChallengeResponse) == "86c35097ac9cec102554764a57cccc19aaaaaaaaaaaaaaaa")
        #expect(Hashing.hex(responses.sessionBaseKey) == "8de40ccadbc14a82f15cb0ad0de95ca3")
    }

    @Test func handshakeSendsNegotiateThenAnAuthenticateThatProvesThePassword() throws {
        let negotiation = NTLMNegotiation(credential: Credential(user: "Domain\\User", password: "Password"),
                                          workstation: "")
        let request = AuthenticatedRequest(method: "GET", target: "/")
        let first = try negotiation.authorization(for: request)
        #expect(first.hasPrefix("NTLM "))
        let type1 = Array(try #require(Data(base64Encoded: String(first.dropFirst(5)))))
        #expect(Array(type1.prefix(12)) == NTLMMessages.signature + [1, 0, 0, 0])
        // A CHALLENGE_MESSAGE as in MS-NLMP §4.2.4.3: flags, server challenge and target info.
        var challenge = NTLMMessages.signature + [2, 0, 0, 0] + [0, 0, 0, 0, 48, 0, 0, 0]
        challenge += NTLMMessages.le32(0xE28A_8233) + Self.bytes("0123456789abcdef") + [UInt8](repeating: 0, count: 8)
        challenge += NTLMMessages.le16(UInt16(Self.targetInfo.count)) + NTLMMessages.le16(UInt16(Self.targetInfo.count))
        challenge += NTLMMessages.le32(48) + Self.targetInfo
        let token = Data(challenge).base64EncodedString()
        #expect(negotiation.proceed(after: HTTPChallenge(scheme: .ntlm, token68: token)) == .continue)
        let third = try negotiation.authorization(for: request)
        let type3 = Array(try #require(Data(base64Encoded: String(third.dropFirst(5)))))
        #expect(NTLMMessages.readUInt32(type3, at: 8) == 3)
        let ntLength = Int(NTLMMessages.readUInt16(type3, at: 20))
        let ntOffset = Int(NTLMMessages.readUInt32(type3, at: 24))
        let nt = Array(type3[ntOffset..<ntOffset + ntLength])
        let key = try NTLMv2.ntowfv2(user: "User", password: "Password", domain: "Domain")
        let proof = try Hashing.hmac(.md5, key: key, Self.bytes("0123456789abcdef") + Array(nt.dropFirst(16)))
        #expect(Array(nt.prefix(16)) == proof)
        #expect(negotiation.proceed(after: HTTPChallenge(scheme: .ntlm)) == .rejected)
    }

    @Test func domainComesFromTheCredentialOrTheUserName() {
        #expect(NTLMNegotiation.split(Credential(user: "D\\u", password: "")) == ("u", "D"))
        #expect(NTLMNegotiation.split(Credential(user: "u", password: "", domain: "X")) == ("u", "X"))
        #expect(NTLMNegotiation.split(Credential(user: "u", password: "")) == ("u", ""))
    }
}
