import HTTPCore

/// The keyring's plaintext, format version 2: a count, then per entry the target (0 server, 1 proxy), scheme,
/// host, port, realm?, user, password, domain?, kind (0 password, 1 bearer token) — strings as a 32-bit big-endian
/// length and UTF-8 bytes, optional strings behind a 0/1 byte. Version 1 is the same without the kind byte (every
/// entry a password). Lives only in memory, wiped after use.
enum KeyringPayload {
    typealias Entry = (scope: CredentialScope, credential: Credential)

    static func encode(_ entries: [Entry]) -> [UInt8] {
        var out: [UInt8] = []
        append(UInt32(entries.count), to: &out)
        for (scope, credential) in entries {
            out.append(scope.target == .proxy ? 1 : 0)
            append(scope.scheme, to: &out)
            append(scope.host, to: &out)
            append(UInt32(truncatingIfNeeded: scope.port), to: &out)
            append(optional: scope.realm, to: &out)
            append(credential.user, to: &out)
            append(credential.password, to: &out)
            append(optional: credential.domain, to: &out)
            out.append(credential.kind == .bearerToken ? 1 : 0)
        }
        return out
    }

    /// The entries, or `nil` when the bytes are not a well-formed payload of the header's format `version`.
    static func decode(_ bytes: [UInt8], version: UInt8) -> [Entry]? {
        var reader = Reader(bytes: bytes)
        guard let count = reader.uint32(), count <= 1_000_000 else { return nil }
        var entries: [Entry] = []
        for _ in 0..<count {
            guard let target = reader.byte(), target <= 1, let scheme = reader.string(), let host = reader.string(),
                let port = reader.uint32(), let realm = reader.optionalString(), let user = reader.string(),
                let password = reader.string(), let domain = reader.optionalString(),
                let kind = version >= 2 ? reader.byte() : 0, kind <= 1
            else { return nil }
            var credential = Credential(user: user, password: password, domain: domain ?? nil)
            credential.kind = kind == 1 ? .bearerToken : .password
            entries.append(
                (
                    CredentialScope(
                        scheme: scheme, host: host, port: Int(port), realm: realm ?? nil,
                        target: target == 1 ? .proxy : .server),
                    credential
                ))
        }
        return reader.isAtEnd ? entries : nil
    }

    private static func append(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func append(_ string: String, to out: inout [UInt8]) {
        let utf8 = Array(string.utf8)
        append(UInt32(utf8.count), to: &out)
        out += utf8
    }

    private static func append(optional string: String?, to out: inout [UInt8]) {
        guard let string else { return out.append(0) }
        out.append(1)
        append(string, to: &out)
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func uint32() -> UInt32? {
            guard bytes.count - offset >= 4 else { return nil }
            defer { offset += 4 }
            return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func string() -> String? {
            guard let length = uint32().map(Int.init), bytes.count - offset >= length else { return nil }
            defer { offset += length }
            return String(validating: bytes[offset..<offset + length], as: UTF8.self)
        }

        /// `.some(nil)` for an absent value, `nil` for malformed bytes.
        mutating func optionalString() -> String?? {
            switch byte() {
            case 0: return .some(nil)
            case 1: return string().map { .some($0) }
            default: return nil
            }
        }
    }
}
