import BrotliCodec
import HTTPCore
import TestSupport
import Testing

/// Decodes `bytes` fed in pieces of `size` bytes.
func decode(_ bytes: [UInt8], with codec: BrotliContentCodec = .brotli(), pieces size: Int) throws -> [UInt8] {
    try decodeInPieces(bytes, with: codec, encoding: "br", pieces: size)
}

/// The `br` decoder on bodies made by the `brotli` tool, in memory.
@Suite(.enabled(if: CompressionTool.shouldRun))
struct BrotliContentCodecTests {
    static let sample = DataPath.text(300_000) + DataPath.bytes(100_000)

    @Test(arguments: [1, 7, 16 * 1024, 1 << 30])
    func everyChunkingDecodesToTheOriginal(size: Int) throws {
        let compressed = try CompressionTool.brotli(Self.sample)
        #expect(try decode(compressed, pieces: size) == Self.sample)
    }

    @Test(arguments: [0, 5, 11])
    func everyQualityDecodes(quality: Int) throws {
        #expect(try decode(try CompressionTool.brotli(Self.sample, quality: quality), pieces: 4096) == Self.sample)
    }

    /// 16 MiB fed in 16 KiB pieces, as the pipeline feeds it: no piece decodes to more than the buffer holds, so
    /// memory stays flat.
    @Test func aLargeBodyStreamsInBoundedPieces() throws {
        let plain = DataPath.text(12 << 20) + DataPath.bytes(4 << 20)
        let compressed = try CompressionTool.brotli(plain)
        let decoder = try BrotliContentCodec.brotli().makeDecoder(for: "br")
        var offset = 0
        var largest = 0
        var matches = true
        var produced = 0
        while offset < compressed.count {
            let piece = try decoder.decode(Array(compressed[offset..<min(offset + 16_384, compressed.count)]))
            largest = max(largest, piece.count)
            matches = matches && piece[...] == plain[produced..<produced + piece.count]
            produced += piece.count
            offset += 16_384
        }
        #expect(try decoder.finish().isEmpty)
        #expect(produced == plain.count)
        #expect(matches)
        #expect(largest <= 4 << 20)
    }

    /// Read as the pipeline's streaming reader reads it: at most `limit` decoded bytes per call, the unused input kept
    /// for the next, in every chunking; the bytes are the original and no piece is larger than asked for.
    @Test(arguments: [(1, 1), (7, 3), (1000, 16 * 1024), (64 * 1024, 16 * 1024), (64 * 1024, 1 << 30)])
    func boundedReadsGiveTheOriginalInPiecesNoLargerThanAsked(limit: Int, size: Int) throws {
        let plain = limit < 100 ? Array(Self.sample.prefix(20_000)) : Self.sample
        let compressed = try CompressionTool.brotli(plain)
        let (output, largest) = try decodeBounded(
            compressed, with: BrotliContentCodec.brotli(), encoding: "br", pieces: size, atMost: limit)
        #expect(LargeBytes.equal(output, plain))
        #expect(largest == limit)
    }

    /// 64 MiB of zeros in under 100 KB: bounded reads stop at the ratio limit too.
    @Test func aBombStopsAtTheRatioLimitInBoundedReads() throws {
        let bomb = try CompressionTool.output(of: "head -c 67108864 /dev/zero | \(CompressionTool.brotli!) -q 5 -c")
        #expect(failsToDecode {
            try decodeBounded(
                bomb, with: BrotliContentCodec.brotli(), encoding: "br", pieces: 16_384, atMost: 65_536
            ).output
        })
    }

    @Test(arguments: [1, 2, 3, 10])
    func aTruncatedBodyFailsBoundedReadsToo(fraction: Int) throws {
        let compressed = try CompressionTool.brotli(Self.sample)
        let truncated = Array(compressed.prefix(compressed.count * fraction / 11))
        #expect(failsToDecode {
            try decodeBounded(
                truncated, with: BrotliContentCodec.brotli(), encoding: "br", pieces: 4096, atMost: 65_536
            ).output
        })
    }

    @Test(arguments: [1, 2, 3, 10])
    func aTruncatedBodyThrows(fraction: Int) throws {
        let compressed = try CompressionTool.brotli(Self.sample)
        let cut = Array(compressed.prefix(compressed.count * fraction / 11))
        #expect(failsToDecode { try decode(cut, pieces: 1000) })
    }

    @Test func garbageThrows() throws {
        #expect(failsToDecode { try decode(DataPath.bytes(10_000), pieces: 1000) })
        #expect(failsToDecode { try decode(Array("hello, world\n".utf8), pieces: 3) })
    }

    /// brotli has no checksum, so not every changed byte is caught: bytes stored as they are (noise brotli cannot
    /// compress) decode to other bytes. Overwritten compressed stretches break the stream's structure and are.
    @Test(arguments: [200, 1000, 3000])
    func aCorruptStretchThrows(offset: Int) throws {
        var compressed = try CompressionTool.brotli(Self.sample)
        for index in offset..<offset + 64 { compressed[index] = 0xFF }
        #expect(failsToDecode { try decode(compressed, pieces: 4096) })
    }

    @Test func dataAfterTheEndThrows() throws {
        let compressed = try CompressionTool.brotli(Self.sample)
        #expect(failsToDecode { try decode(compressed + [0x00, 0x01], pieces: 4096) })
        #expect(failsToDecode { try decode(compressed + compressed, pieces: compressed.count) })
    }

    @Test func anEmptyBodyDecodesToNothing() throws {
        #expect(try decode([], pieces: 1).isEmpty)
        #expect(try decode(try CompressionTool.brotli([]), pieces: 1).isEmpty)
    }

    /// 64 MiB of zeros compress to a few hundred bytes: the ratio limit stops them after about 1 MiB.
    @Test func aBombStopsAtTheRatioLimit() throws {
        let bomb = try CompressionTool.output(of: "head -c 67108864 /dev/zero | \(CompressionTool.brotli!) -q 5 -c")
        #expect(bomb.count < 100_000)
        #expect(failsToDecode { try decode(bomb, pieces: 16_384) })
        let unlimited = BrotliContentCodec(configuration: .init(maxRatio: nil))
        #expect(try decode(bomb, with: unlimited, pieces: 16_384).count == 64 << 20)
    }

    @Test func theSizeLimitStopsALargeBody() throws {
        let compressed = try CompressionTool.brotli(Self.sample)
        let limited = BrotliContentCodec(configuration: .init(maxDecodedBytes: 100_000))
        #expect(failsToDecode { try decode(compressed, with: limited, pieces: 4096) })
        let exact = BrotliContentCodec(configuration: .init(maxDecodedBytes: Int64(Self.sample.count)))
        #expect(try decode(compressed, with: exact, pieces: 4096) == Self.sample)
    }

    @Test func theCodecOffersBrAndDecodesOnly() throws {
        let codec = BrotliContentCodec.brotli()
        #expect(codec.isAvailable)
        #expect(codec.encodings == ["br"])
        #expect(BrotliContentCodec.libraryVersion?.hasPrefix("1.") == true)
        #expect(throws: ClientError.self) { try codec.makeDecoder(for: "gzip") }
        #expect(throws: ClientError.self) { try codec.makeEncoder(for: "br") }
        _ = try codec.makeDecoder(for: "BR")
    }

    /// On a machine without libbrotlidec the codec offers nothing, so `br` is neither advertised nor decoded.
    @Test func withoutTheLibraryNothingIsOffered() throws {
        let codec = BrotliContentCodec(libraryName: "libbrotlidec.so.0-not-installed")
        #expect(!codec.isAvailable)
        #expect(codec.encodings.isEmpty)
        do {
            _ = try codec.makeDecoder(for: "br")
            Issue.record("a decoder without the library")
        } catch let error as ClientError {
            #expect(error.code == .invalidConfiguration)
        }
    }
}
