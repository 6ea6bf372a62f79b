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
}
