import HTTPCore
@testable import HTTPPipeline
import Synchronization
import Testing

/// `DecodingBodySource` feeds a large chunk to its decoder in slices, one decoded piece per `next()`.
@Suite struct DecodingBodySourceTests {
    /// Decodes like `XorCodec` and records the size of every input it is given.
    final class RecordingDecoder: ContentDecoder {
        let inputs = Mutex<[Int]>([])
        private let base = XorCodec.Decoder()

        func decode(_ chunk: [UInt8]) throws -> [UInt8] {
            inputs.withLock { $0.append(chunk.count) }
            return try base.decode(chunk)
        }

        func finish() throws -> [UInt8] { try base.finish() }
    }

    static let plain = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test func aLargeChunkIsDecodedASliceAtATime() async throws {
        let encoded = XorCodec.encode(Self.plain)
        let decoder = RecordingDecoder()
        let source = DecodingBodySource(base: BufferedBodySource([encoded]), decoder: decoder)
        var pieces: [[UInt8]] = []
        while let piece = try await source.next() { pieces.append(piece) }

        #expect(pieces.joined().elementsEqual(Self.plain))
        let inputs = decoder.inputs.withLock { $0 }
        #expect(inputs.reduce(0, +) == encoded.count)
        #expect(inputs.allSatisfy { $0 <= DecodingBodySource.sliceSize })
        #expect(pieces.count == inputs.count, "one decoded piece per slice")
    }

    @Test func chunksAcrossSlicesKeepTheirOrderAndSmallOnesGoWhole() async throws {
        let encoded = XorCodec.encode(Self.plain)
        let cut = [0, 10, 40_000, 40_007, encoded.count]
        let chunks = zip(cut, cut.dropFirst()).map { Array(encoded[$0..<$1]) }
        let decoder = RecordingDecoder()
        let source = DecodingBodySource(base: BufferedBodySource(chunks), decoder: decoder)
        var decoded: [UInt8] = []
        while let piece = try await source.next() { decoded += piece }

        #expect(decoded == Self.plain)
        #expect(decoder.inputs.withLock { $0 }.prefix(2) == [10, DecodingBodySource.sliceSize])
    }

    @Test func aTruncatedBodyStillFailsAtTheEnd() async throws {
        let encoded = XorCodec.encode(Self.plain).dropLast(2)
        let source = DecodingBodySource(base: BufferedBodySource([Array(encoded)]), decoder: RecordingDecoder())
        await #expect(throws: ClientError.self) {
            while try await source.next() != nil {}
        }
    }
}
