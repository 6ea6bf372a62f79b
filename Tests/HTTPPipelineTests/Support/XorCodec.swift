import FoundationEssentials
import Glibc
import HTTPCore
import HTTPPipeline
import HTTPTesting

/// A stand-in for a real codec, so pipeline tests need no zlib: "compressed" bytes are the plain bytes XOR 0x5A
/// followed by the trailer `END!`; a body without the trailer is truncated.
final class XorCodec: ContentCodec {
    static let trailer = Array("END!".utf8)
    let encodings: [String]

    init(encodings: [String] = ["gzip", "deflate"]) {
        self.encodings = encodings
    }

    static func encode(_ bytes: [UInt8]) -> [UInt8] { bytes.map { $0 ^ 0x5A } + trailer }

    func makeDecoder(for encoding: String) throws -> any ContentDecoder { Decoder() }
    func makeEncoder(for encoding: String) throws -> any ContentEncoder { Encoder() }

    final class Decoder: ContentDecoder {
        private var held: [UInt8] = []
        func decode(_ chunk: [UInt8]) throws -> [UInt8] {
            held += chunk
            let ready = max(0, held.count - 4)
            defer { held.removeFirst(ready) }
            return held.prefix(ready).map { $0 ^ 0x5A }
        }
        func finish() throws -> [UInt8] {
            guard held == XorCodec.trailer else {
                throw ClientError(.compressionFailed, message: "truncated xor stream")
            }
            return []
        }
    }

    final class Encoder: ContentEncoder {
        func encode(_ chunk: [UInt8]) throws -> [UInt8] { chunk.map { $0 ^ 0x5A } }
        func finish() throws -> [UInt8] { XorCodec.trailer }
    }
}

/// A response whose body is "compressed" with ``XorCodec`` and arrives in pieces.
func compressedResponse(
    _ plain: [UInt8], coding: String = "gzip", pieces: Int = 3, status: Int = 200,
    extra: HTTPFields = [:]
) -> Response {
    let encoded = XorCodec.encode(plain)
    var fields = extra
    fields[.contentEncoding] = coding
    let size = max(1, encoded.count / pieces)
    let chunks = stride(from: 0, to: encoded.count, by: size).map { Array(encoded[$0..<min($0 + size, encoded.count)]) }
    return Response(
        status: HTTPResponse.Status(code: status), headerFields: fields,
        body: ResponseBody(expectedLength: Int64(encoded.count), source: BufferedBodySource(chunks)))
}

/// Reads every chunk of a body.
func collect(_ body: RequestBody?) async throws -> [UInt8] {
    guard let body else { return [] }
    var bytes: [UInt8] = []
    for try await chunk in body.makeChunks() { bytes += chunk }
    return bytes
}
