public import HTTPCore

/// Parses `WWW-Authenticate` and `Proxy-Authenticate` values (RFC 9110 §11.6.1): several challenges per field,
/// parameters as tokens or quoted strings, and `token68` values.
public enum ChallengeParser {
    /// One parsed challenge (the core's ``HTTPChallenge``).
    public typealias Challenge = HTTPChallenge

    /// Parses every challenge in the given field values.
    /// - Parameter values: The header values.
    /// - Returns: The challenges, in order.
    public static func challenges(in values: [String]) -> [Challenge] {
        values.flatMap { parse(Array($0.utf8)) }
    }

    private static func parse(_ bytes: [UInt8]) -> [Challenge] {
        var challenges: [Challenge] = []
        var index = 0
        func skip(_ set: Set<UInt8>) { while index < bytes.count, set.contains(bytes[index]) { index += 1 } }
        func token() -> String {
            let start = index
            while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        while index < bytes.count {
            skip([0x20, 0x09, 0x2C])
            let scheme = token()
            guard !scheme.isEmpty else { break }
            var challenge = Challenge(scheme: AuthenticationScheme(scheme), parameters: [:], token68: nil)
            skip([0x20, 0x09])
            var isFirstItem = true
            while index < bytes.count {
                let mark = index
                let name = token()
                skip([0x20, 0x09])
                guard !name.isEmpty, index < bytes.count, bytes[index] == 0x3D else {
                    if isFirstItem, !name.isEmpty, index >= bytes.count || bytes[index] == 0x2C {
                        challenge.token68 = name  // `Negotiate abc123`
                    } else {
                        index = mark  // a new scheme starts here
                    }
                    break
                }
                isFirstItem = false
                index += 1
                skip([0x20, 0x09])
                if index >= bytes.count || bytes[index] == 0x3D || bytes[index] == 0x2C {
                    // token68 with "=" padding, e.g. `Negotiate abc==`.
                    while index < bytes.count, bytes[index] == 0x3D { index += 1 }
                    challenge.token68 = String(decoding: bytes[mark..<index], as: UTF8.self)
                } else {
                    challenge.parameters[name.lowercased()] = bytes[index] == 0x22 ? quoted() : token()
                }
                skip([0x20, 0x09])
                guard index < bytes.count, bytes[index] == 0x2C else { break }
                index += 1
                skip([0x20, 0x09, 0x2C])
            }
            challenges.append(challenge)
        }
        return challenges

        func quoted() -> String {
            index += 1
            var value: [UInt8] = []
            while index < bytes.count, bytes[index] != 0x22 {
                if bytes[index] == 0x5C, index + 1 < bytes.count { index += 1 }
                value.append(bytes[index])
                index += 1
            }
            index += 1
            return String(decoding: value, as: UTF8.self)
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"),
            UInt8(ascii: "/"):
            true
        default: false
        }
    }
}
