import COpenSSL

/// The NTLMv1 arithmetic of MS-NLMP §3.3.1, for servers that cannot do NTLMv2 and only when the application
/// allows it (``NTLMAuthenticator/allowsNTLMv1``): DES under keys derived from the password hashes. A captured
/// NTLMv1 answer can be cracked offline, which is why it is never the default.
enum NTLMv1 {
    /// The LM and NT challenge responses.
    struct Responses: Sendable, Hashable {
        var lmChallengeResponse: [UInt8]
        var ntChallengeResponse: [UInt8]
    }

    /// The responses to a server challenge: plain NTLMv1 (§3.3.1), or, when the server negotiated extended session
    /// security, NTLMv1 with a client challenge (the NTLM2 session response).
    /// - Parameters:
    ///   - password: The password.
    ///   - serverChallenge: The CHALLENGE_MESSAGE's 8 bytes.
    ///   - clientChallenge: 8 random bytes; used only with extended session security.
    ///   - extendedSessionSecurity: Whether the server set NEGOTIATE_EXTENDED_SESSIONSECURITY.
    /// - Returns: The two responses, 24 bytes each.
    /// - Throws: What ``Hashing/hash(_:_:)`` throws for MD5.
    static func responses(
        password: String, serverChallenge: [UInt8], clientChallenge: [UInt8], extendedSessionSecurity: Bool
    ) throws -> Responses {
        let ntHash = NTLMv2.ntowfv1(password: password)
        if extendedSessionSecurity {
            let sessionChallenge = try Hashing.hash(.md5, serverChallenge + clientChallenge).prefix(8)
            return Responses(lmChallengeResponse: clientChallenge + [UInt8](repeating: 0, count: 16),
                             ntChallengeResponse: desl(key: ntHash, Array(sessionChallenge)))
        }
        return Responses(lmChallengeResponse: desl(key: lmowfv1(password: password), serverChallenge),
                         ntChallengeResponse: desl(key: ntHash, serverChallenge))
    }

    /// LMOWFv1: the password's first 14 bytes, ASCII letters upper-cased, each 7-byte half as a DES key over
    /// `KGS!@#$%`.
    static func lmowfv1(password: String) -> [UInt8] {
        var bytes = Array(password.utf8.prefix(14)).map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        bytes += [UInt8](repeating: 0, count: 14 - bytes.count)
        let magic = Array("KGS!@#$%".utf8)
        return des(key7: bytes[0..<7], magic) + des(key7: bytes[7..<14], magic)
    }

    /// DESL (§6): the 16-byte key padded to 21 bytes, three DES encryptions of the 8-byte data.
    static func desl(key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let padded = key + [UInt8](repeating: 0, count: 21 - key.count)
        return des(key7: padded[0..<7], data) + des(key7: padded[7..<14], data) + des(key7: padded[14..<21], data)
    }

    /// One DES block under a 7-byte key, spread over the 8 key bytes DES takes (the parity bits stay zero).
    static func des(key7: ArraySlice<UInt8>, _ block: [UInt8]) -> [UInt8] {
        let bits = key7.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let key = (0..<8).map { UInt8(truncatingIfNeeded: (bits >> (49 - 7 * UInt64($0))) & 0x7F) << 1 }
        precondition(block.count == 8, "DES encrypts 8-byte blocks")
        var output = [UInt8](repeating: 0, count: 8)
        c_openssl_des_ecb_encrypt(key, block, &output)
        return output
    }
}
