import COpenSSL
import HTTPCore

/// SHA-256 and HMAC-SHA-256 from OpenSSL, and lowercase hex: what Signature Version 4 is made of.
enum Crypto {
    /// The SHA-256 digest of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let input = bytes.isEmpty ? [0] : bytes
        input.withUnsafeBytes { raw in
            out.withUnsafeMutableBufferPointer { buffer in
                _ = EVP_Digest(raw.baseAddress, bytes.count, buffer.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        return out
    }

    /// HMAC-SHA-256 of `data` under `key`.
    static func hmacSHA256(key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        let input = data.isEmpty ? [0] : data
        key.withUnsafeBytes { keyBytes in
            input.withUnsafeBufferPointer { dataBytes in
                out.withUnsafeMutableBufferPointer { buffer in
                    _ = HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(key.count), dataBytes.baseAddress, data.count,
                        buffer.baseAddress, &length)
                }
            }
        }
        return out
    }

    /// Lowercase hexadecimal, two digits a byte.
    static func hex(_ bytes: [UInt8]) -> String { Hex.lowercase(bytes) }

    /// The hex SHA-256 of a string's UTF-8 bytes.
    static func sha256Hex(_ string: String) -> String { hex(sha256(Array(string.utf8))) }
}

/// Hashes a stream of chunks with SHA-256 without holding them: for signing a file body's payload.
final class StreamingSHA256 {
    private let context: OpaquePointer?

    init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in _ = EVP_DigestUpdate(context, raw.baseAddress, raw.count) }
    }

    func finish() -> String {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        out.withUnsafeMutableBufferPointer { buffer in _ = EVP_DigestFinal_ex(context, buffer.baseAddress, &length) }
        return Crypto.hex(out)
    }
}
