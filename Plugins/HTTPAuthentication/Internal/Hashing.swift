import COpenSSL
import HTTPCore

/// The hash functions Digest and NTLM use: OpenSSL's EVP digests (default provider) for MD5 and the SHA-2
/// family, HMAC built on them here, and MD4 from ``MD4`` (OpenSSL 3 has MD4 only in its legacy provider).
enum Hashing {
    /// A hash function by Digest algorithm name.
    enum Function: Sendable {
        case md5, sha256, sha512_256

        /// The block size HMAC pads the key to.
        var blockSize: Int { self == .sha512_256 ? 128 : 64 }
    }

    /// The digest of `bytes`.
    /// - Throws: ``ClientError`` with ``ClientError/Code/authenticationFailed`` when OpenSSL refuses the function
    ///   (MD5 under a FIPS configuration).
    static func hash(_ function: Function, _ bytes: [UInt8]) throws -> [UInt8] {
        let type: OpaquePointer? =
            switch function {
            case .md5: EVP_md5()
            case .sha256: EVP_sha256()
            case .sha512_256: EVP_sha512_256()
            }
        return try digest(type, bytes, name: "\(function)")
    }

    /// The digest of `bytes` with an OpenSSL `EVP_MD`.
    /// - Throws: ``ClientError`` with ``ClientError/Code/authenticationFailed`` when OpenSSL refuses it.
    static func digest(_ type: OpaquePointer?, _ bytes: [UInt8], name: String) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &output, &length, type, nil)
        }
        guard ok == 1 else {
            ERR_clear_error()
            throw ClientError(.authenticationFailed, stage: .credentials,
                              message: "the system's OpenSSL refuses the \(name) digest (a FIPS configuration?)")
        }
        return Array(output.prefix(Int(length)))
    }

    /// Whether OpenSSL computes `function` here; a negotiation that needs a refused one is not started, so the
    /// pipeline answers another offered scheme.
    static func isAvailable(_ function: Function) -> Bool {
        (try? hash(function, [])) != nil
    }

    /// HMAC (RFC 2104) of `message` under `key`.
    /// - Throws: What ``hash(_:_:)`` throws.
    static func hmac(_ function: Function, key: [UInt8], _ message: [UInt8]) throws -> [UInt8] {
        var key = key.count > function.blockSize ? try hash(function, key) : key
        key += [UInt8](repeating: 0, count: function.blockSize - key.count)
        let inner = try hash(function, key.map { $0 ^ 0x36 } + message)
        return try hash(function, key.map { $0 ^ 0x5C } + inner)
    }

    /// `count` random bytes from the system's generator (`getrandom`).
    static func random(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// Lower-case hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String { Hex.lowercase(bytes) }
}
