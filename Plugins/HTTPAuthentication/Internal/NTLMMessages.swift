import HTTPCore

/// The NTLM message layouts (MS-NLMP §2.2.1): NEGOTIATE (type 1), CHALLENGE (type 2) and AUTHENTICATE
/// (type 3), without a version, MIC or key exchange.
enum NTLMMessages {
    static let signature: [UInt8] = Array("NTLMSSP".utf8) + [0]
    /// UNICODE, OEM, REQUEST_TARGET, NTLM, ALWAYS_SIGN, EXTENDED_SESSIONSECURITY, 128 and 56.
    static let negotiateFlags: UInt32 = 0xA008_8207
    /// What curl's NEGOTIATE offers, sent when NTLMv1 is allowed: OEM, REQUEST_TARGET, NTLM, ALWAYS_SIGN and
    /// EXTENDED_SESSIONSECURITY, so a legacy server that works with `curl --ntlm` sees the same handshake.
    static let legacyNegotiateFlags: UInt32 = 0x0008_8206
    /// NEGOTIATE_UNICODE: strings are UTF-16LE, else OEM.
    static let unicodeFlag: UInt32 = 0x0000_0001
    /// NEGOTIATE_OEM: strings in the OEM character set.
    static let oemFlag: UInt32 = 0x0000_0002
    /// NEGOTIATE_SIGN, NEGOTIATE_SEAL and NEGOTIATE_KEY_EXCH: session security, which ASIKit never offers.
    static let sessionSecurityFlags: UInt32 = 0x4000_0030
    /// NEGOTIATE_EXTENDED_SESSIONSECURITY: NTLMv1 answers with a client challenge.
    static let extendedSessionSecurityFlag: UInt32 = 0x0008_0000
    /// NEGOTIATE_TARGET_INFO: the server sent target info, so it can check an NTLMv2 answer.
    static let targetInfoFlag: UInt32 = 0x0080_0000

    /// A parsed CHALLENGE_MESSAGE.
    struct Challenge: Sendable, Hashable {
        var flags: UInt32
        var serverChallenge: [UInt8]
        var targetInfo: [UInt8]

        /// The `MsvAvTimestamp` AV pair, when the server sent one.
        var timestamp: UInt64? {
            var index = 0
            while index + 4 <= targetInfo.count {
                let id = UInt16(targetInfo[index]) | UInt16(targetInfo[index + 1]) << 8
                let length = Int(UInt16(targetInfo[index + 2]) | UInt16(targetInfo[index + 3]) << 8)
                if id == 0 { return nil }
                if id == 7, length == 8, index + 12 <= targetInfo.count {
                    return NTLMMessages.readUInt64(targetInfo, at: index + 4)
                }
                index += 4 + length
            }
            return nil
        }
    }

    /// The NEGOTIATE_MESSAGE, with no domain or workstation supplied.
    /// - Parameter flags: The flags to offer.
    /// - Returns: The message's bytes.
    static func negotiate(flags: UInt32 = negotiateFlags) -> [UInt8] {
        var message = signature + le32(1) + le32(flags)
        message += [UInt8](repeating: 0, count: 16)  // domain and workstation fields, empty
        return message
    }

    /// Parses a CHALLENGE_MESSAGE; `nil` when it is not one.
    static func parseChallenge(_ bytes: [UInt8]) -> Challenge? {
        guard bytes.count >= 32, Array(bytes[0..<8]) == signature, readUInt32(bytes, at: 8) == 2 else { return nil }
        var targetInfo: [UInt8] = []
        let flags = readUInt32(bytes, at: 20)
        if flags & targetInfoFlag != 0, bytes.count >= 48 {  // the target info fields are there
            let length = Int(readUInt16(bytes, at: 40))
            let offset = Int(readUInt32(bytes, at: 44))
            guard offset + length <= bytes.count else { return nil }
            targetInfo = Array(bytes[offset..<offset + length])
        }
        return Challenge(flags: flags, serverChallenge: Array(bytes[24..<32]),
                         targetInfo: targetInfo)
    }

    /// The AUTHENTICATE_MESSAGE. Its strings are UTF-16LE when `flags` has NEGOTIATE_UNICODE, else OEM (sent as
    /// UTF-8); the session key field is empty, with offset 0.
    /// - Throws: ``ClientError`` with ``ClientError/Code/authenticationFailed`` when a field does not fit the
    ///   message's 16-bit lengths (a server's oversized target info, a very long name).
    static func authenticate(
        flags: UInt32, lm: [UInt8], nt: [UInt8], domain: String, user: String, workstation: String
    ) throws -> [UInt8] {
        let unicode = flags & unicodeFlag != 0
        func text(_ string: String) -> [UInt8] { unicode ? NTLMv2.utf16LE(string) : Array(string.utf8) }
        let fields: [[UInt8]] = [lm, nt, text(domain), text(user), text(workstation)]
        var header = signature + le32(3)
        var payload: [UInt8] = []
        var offset = 64
        for field in fields {
            guard let length = UInt16(exactly: field.count), let start = UInt32(exactly: offset) else {
                throw ClientError(.authenticationFailed, stage: .credentials,
                                  message: "NTLM: a field of the AUTHENTICATE message is over 65,535 bytes")
            }
            header += le16(length) + le16(length) + le32(start)
            payload += field
            offset += field.count
        }
        header += [UInt8](repeating: 0, count: 8)  // no encrypted session key
        header += le32(flags)
        return header + payload
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: value), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func readUInt16(_ bytes: [UInt8], at index: Int) -> UInt16 {
        UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
    }

    static func readUInt32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[index + $1]) << (8 * UInt32($1)) }
    }

    static func readUInt64(_ bytes: [UInt8], at index: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[index + $1]) << (8 * UInt64($1)) }
    }
}
