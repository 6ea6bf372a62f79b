import COpenSSL
import HTTPCore

/// HMACs and digests from OpenSSL: temp URL signatures and the MD5 Swift uses as an object's ETag.
enum Digests {
    /// HMAC of `data` under `key` with the algorithm.
    static func hmac(_ algorithm: CloudFilesTempURL.Digest, key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let md =
            switch algorithm.name {
            case "sha1": EVP_sha1()
            case "sha512": EVP_sha512()
            default: EVP_sha256()
            }
        let input = data.isEmpty ? [0] : data
        let keyBytes = key.isEmpty ? [0] : key
        keyBytes.withUnsafeBytes { k in
            input.withUnsafeBufferPointer { d in
                out.withUnsafeMutableBufferPointer { o in
                    _ = HMAC(md, k.baseAddress, Int32(key.count), d.baseAddress, data.count, o.baseAddress, &length)
                }
            }
        }
        return Array(out.prefix(Int(length)))
    }

    /// Lowercase hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String { Hex.lowercase(bytes) }
}

/// MD5 of a stream of chunks (a file segment read in bounded pieces), to compare with a segment's ETag.
final class StreamingMD5 {
    private let context: OpaquePointer?

    init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_md5(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in _ = EVP_DigestUpdate(context, raw.baseAddress, raw.count) }
    }

    func finish() -> String {
        var out = [UInt8](repeating: 0, count: 16)
        var length: UInt32 = 0
        out.withUnsafeMutableBufferPointer { buffer in _ = EVP_DigestFinal_ex(context, buffer.baseAddress, &length) }
        return Digests.hex(out)
    }
}
