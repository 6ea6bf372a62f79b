import GzipCodec
import HTTPCore
package import TestSupport

/// Gzip by the library's own zlib codec, for the tests that compare a body with its compressed form (asi's and
/// the data-path interop tests).
extension DataPath {
    package static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let encoder = try ZlibContentCodec.zlib().makeEncoder(for: "gzip")
        return try encoder.encode(bytes) + encoder.finish()
    }

    package static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let decoder = try ZlibContentCodec.zlib().makeDecoder(for: "gzip")
        return try decoder.decode(bytes) + decoder.finish()
    }
}
