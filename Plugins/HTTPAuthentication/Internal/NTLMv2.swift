/// The NTLMv2 arithmetic of MS-NLMP §3.3.2, apart from any message layout or state: the known-answer tests call
/// it with §4.2.4's inputs.
enum NTLMv2 {
    /// UTF-16LE, as NTLM sends every string when Unicode is negotiated.
    static func utf16LE(_ text: String) -> [UInt8] {
        text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }

    /// NTOWFv1: MD4 of the UTF-16LE password.
    static func ntowfv1(password: String) -> [UInt8] { MD4.hash(utf16LE(password)) }

    /// NTOWFv2 (= ResponseKeyNT = ResponseKeyLM): HMAC-MD5 of UPPER(user) + domain under NTOWFv1.
    /// - Throws: What ``Hashing/hmac(_:key:_:)`` throws.
    static func ntowfv2(user: String, password: String, domain: String) throws -> [UInt8] {
        try Hashing.hmac(.md5, key: ntowfv1(password: password), utf16LE(user.uppercased() + domain))
    }

    /// The `temp` blob (§3.3.2): version 1, time, client challenge and the server's target info.
    static func temp(time: UInt64, clientChallenge: [UInt8], targetInfo: [UInt8]) -> [UInt8] {
        var blob: [UInt8] = [1, 1, 0, 0, 0, 0, 0, 0]
        blob += littleEndian(time, bytes: 8)
        blob += clientChallenge
        blob += [0, 0, 0, 0]
        blob += targetInfo
        blob += [0, 0, 0, 0]
        return blob
    }

    /// The three values an AUTHENTICATE_MESSAGE carries, and the session base key.
    struct Responses: Sendable, Hashable {
        var ntProofStr: [UInt8]
        var ntChallengeResponse: [UInt8]
        var lmChallengeResponse: [UInt8]
        var sessionBaseKey: [UInt8]
    }

    /// Computes the NTLMv2 responses.
    /// - Throws: What ``Hashing/hmac(_:key:_:)`` throws.
    static func responses(
        key: [UInt8], serverChallenge: [UInt8], clientChallenge: [UInt8], time: UInt64, targetInfo: [UInt8]
    ) throws -> Responses {
        let blob = temp(time: time, clientChallenge: clientChallenge, targetInfo: targetInfo)
        let proof = try Hashing.hmac(.md5, key: key, serverChallenge + blob)
        let lm = try Hashing.hmac(.md5, key: key, serverChallenge + clientChallenge) + clientChallenge
        return Responses(ntProofStr: proof, ntChallengeResponse: proof + blob, lmChallengeResponse: lm,
                         sessionBaseKey: try Hashing.hmac(.md5, key: key, proof))
    }

    static func littleEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
