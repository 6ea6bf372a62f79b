import HTTPCore
@testable import HTTPPipeline
import Synchronization
import Testing

/// A bounded decoder learns the encoded body's length before its first read, when the response gives it, so it can
/// pick how it allocates (decision 0039); it is not told anything when the length is unknown.
@Suite struct DecodingBodySourceLengthTests {
    /// Decodes XOR 0x5A in pieces of at most `limit` bytes and records what it was told, in order.
    final class RecordingBoundedDecoder: BoundedContentDecoder {
        let events = Mutex<[String]>([])

        func decode(_ chunk: [UInt8]) throws -> [UInt8] {
            events.withLock { $0.append("decode") }
            return chunk.map { $0 ^ 0x5A }
        }

        func decode(_ input: UnsafeRawBufferPointer, atMost limit: Int) throws -> (output: [UInt8], used: Int) {
            events.withLock { $0.append("read") }
            let count = min(limit, input.count)
            return (input.prefix(count).map { $0 ^ 0x5A }, count)
        }

        func prepare(forEncodedLength length: Int64) {
            events.withLock { $0.append("length \(length)") }
        }

        func finish() throws -> [UInt8] { [] }
    }

    static let plain = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    @Test(arguments: [Int64?.none, 200_000])
    func theLengthComesBeforeTheFirstReadAndOnlyWhenKnown(length: Int64?) async throws {
        let encoded = Self.plain.map { $0 ^ 0x5A }
        let decoder = RecordingBoundedDecoder()
        let body = ResponseBody(expectedLength: length, source: BufferedBodySource([encoded])).decoded(with: decoder)
        var decoded: [UInt8] = []
        var largest = 0
        for try await piece in body {
            decoded += piece
            largest = max(largest, piece.count)
        }

        #expect(decoded == Self.plain)
        #expect(largest <= ContentCoding.pieceSize)
        let events = decoder.events.withLock { $0 }
        #expect(events.first == length.map { "length \($0)" } ?? "read")
        #expect(events.filter { $0.hasPrefix("length") }.count == (length == nil ? 0 : 1))
        #expect(!events.contains("decode"), "a bounded decoder is read in bounded pieces only")
    }

    /// A codec for `x-test` whose bounded decoders pass bytes through and record the lengths they are told.
    final class LengthRecordingCodec: ContentCodec {
        let lengths = Mutex<[Int64]>([])
        var encodings: [String] { ["x-test"] }

        func makeDecoder(for encoding: String) throws -> any ContentDecoder { Decoder(codec: self) }

        func makeEncoder(for encoding: String) throws -> any ContentEncoder {
            throw ClientError(.compressionFailed, message: "decoding only")
        }

        final class Decoder: BoundedContentDecoder {
            let codec: LengthRecordingCodec
            init(codec: LengthRecordingCodec) { self.codec = codec }
            func decode(_ chunk: [UInt8]) throws -> [UInt8] { chunk }
            func decode(_ input: UnsafeRawBufferPointer, atMost limit: Int) throws -> (output: [UInt8], used: Int) {
                let count = min(limit, input.count)
                return (Array(input.prefix(count)), count)
            }
            func prepare(forEncodedLength length: Int64) { codec.lengths.withLock { $0.append(length) } }
            func finish() throws -> [UInt8] { [] }
        }
    }

    /// Every reader's decoder (a file download's, the cache's copy) comes from `ContentCoding.makeDecoder`, which
    /// tells it the `Content-Length` it finds; a missing or malformed one tells it nothing.
    @Test(arguments: ["300000", "", "12x", "-5"])
    func makeDecoderTellsABoundedDecoderTheContentLength(value: String) throws {
        let codec = LengthRecordingCodec()
        var fields: HTTPFields = [.contentEncoding: "x-test"]
        if !value.isEmpty { fields[.contentLength] = value }
        _ = try ContentCoding.makeDecoder(for: fields, codecs: [codec])
        #expect(codec.lengths.withLock { $0 } == (value == "300000" ? [300_000] : []))
    }
}
