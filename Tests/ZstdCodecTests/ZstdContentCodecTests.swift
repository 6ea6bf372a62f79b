import HTTPCore
import TestSupport
import Testing
import ZstdCodec

/// Decodes `bytes` fed in pieces of `size` bytes.
func decode(_ bytes: [UInt8], with codec: ZstdContentCodec = .zstd(), pieces size: Int) throws -> [UInt8] {
    try decodeInPieces(bytes, with: codec, encoding: "zstd", pieces: size)
}

/// The `zstd` decoder on bodies made by the `zstd` tool, in memory.
@Suite(.enabled(if: CompressionTool.shouldRun))
struct ZstdContentCodecTests {
    static let sample = DataPath.text(300_000) + DataPath.bytes(100_000)

    @Test(arguments: [1, 7, 16 * 1024, 1 << 30])
    func everyChunkingDecodesToTheOriginal(size: Int) throws {
        let compressed = try CompressionTool.zstd(Self.sample)
        #expect(try decode(compressed, pieces: size) == Self.sample)
    }

    @Test(arguments: [1, 3, 19])
    func everyLevelDecodes(level: Int) throws {
        #expect(try decode(try CompressionTool.zstd(Self.sample, level: level), pieces: 4096) == Self.sample)
    }

    /// 16 MiB fed in 16 KiB pieces, as the pipeline feeds it: no piece decodes to more than the buffer holds, so
    /// memory stays flat.
    @Test func aLargeBodyStreamsInBoundedPieces() throws {
        let plain = DataPath.text(12 << 20) + DataPath.bytes(4 << 20)
        let compressed = try CompressionTool.zstd(plain)
        let decoder = try ZstdContentCodec.zstd().makeDecoder(for: "zstd")
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
        let compressed = try CompressionTool.zstd(plain)
        let (output, largest) = try decodeBounded(
            compressed, with: ZstdContentCodec.zstd(), encoding: "zstd", pieces: size, atMost: limit)
        #expect(LargeBytes.equal(output, plain))
        #expect(largest == limit)
    }

    /// 64 MiB of zeros in under 100 KB: bounded reads stop at the ratio limit too.
    @Test func aBombStopsAtTheRatioLimitInBoundedReads() throws {
        let bomb = try CompressionTool.output(of: "head -c 67108864 /dev/zero | \(CompressionTool.zstd!) -q -3 -c")
        #expect(failsToDecode {
            try decodeBounded(
                bomb, with: ZstdContentCodec.zstd(), encoding: "zstd", pieces: 16_384, atMost: 65_536
            ).output
        })
    }

    @Test(arguments: [1, 2, 3, 10])
    func aTruncatedBodyFailsBoundedReadsToo(fraction: Int) throws {
        let compressed = try CompressionTool.zstd(Self.sample)
        let truncated = Array(compressed.prefix(compressed.count * fraction / 11))
        #expect(failsToDecode {
            try decodeBounded(
                truncated, with: ZstdContentCodec.zstd(), encoding: "zstd", pieces: 4096, atMost: 65_536
            ).output
        })
    }

    @Test(arguments: [1, 2, 3, 10])
    func aTruncatedBodyThrows(fraction: Int) throws {
        let compressed = try CompressionTool.zstd(Self.sample)
        let cut = Array(compressed.prefix(compressed.count * fraction / 11))
        #expect(failsToDecode { try decode(cut, pieces: 1000) })
    }

    @Test func garbageThrows() throws {
        #expect(failsToDecode { try decode(DataPath.bytes(10_000), pieces: 1000) })
        #expect(failsToDecode { try decode(Array("hello, world\n".utf8), pieces: 3) })
    }

    /// The tool writes a checksum, so even one flipped bit is caught.
    @Test(arguments: [0.25, 0.5, 0.9])
    func aFlippedBitThrows(position: Double) throws {
        var compressed = try CompressionTool.zstd(Self.sample)
        compressed[Int(Double(compressed.count) * position)] ^= 0x10
        #expect(failsToDecode { try decode(compressed, pieces: 4096) })
    }

    @Test func framesInARowDecodeToTheConcatenation() throws {
        let compressed = try CompressionTool.zstd(Self.sample)
        #expect(try decode(compressed + compressed, pieces: 5000) == Self.sample + Self.sample)
    }

    @Test func garbageAfterTheEndThrows() throws {
        let compressed = try CompressionTool.zstd(Self.sample)
        #expect(failsToDecode { try decode(compressed + Array("trailing garbage".utf8), pieces: 4096) })
    }

    @Test func anEmptyBodyDecodesToNothing() throws {
        #expect(try decode([], pieces: 1).isEmpty)
        #expect(try decode(try CompressionTool.zstd([]), pieces: 1).isEmpty)
    }

    /// 64 MiB of zeros compress to a few kilobytes: the ratio limit stops them after about 1 MiB.
    @Test func aBombStopsAtTheRatioLimit() throws {
        let bomb = try CompressionTool.output(of: "head -c 67108864 /dev/zero | \(CompressionTool.zstd!) -q -3 -c")
        #expect(bomb.count < 100_000)
        #expect(failsToDecode { try decode(bomb, pieces: 16_384) })
        let unlimited = ZstdContentCodec(configuration: .init(maxRatio: nil))
        #expect(try decode(bomb, with: unlimited, pieces: 16_384).count == 64 << 20)
    }

    @Test func theSizeLimitStopsALargeBody() throws {
        let compressed = try CompressionTool.zstd(Self.sample)
        let limited = ZstdContentCodec(configuration: .init(maxDecodedBytes: 100_000))
        #expect(failsToDecode { try decode(compressed, with: limited, pieces: 4096) })
        let exact = ZstdContentCodec(configuration: .init(maxDecodedBytes: Int64(Self.sample.count)))
        #expect(try decode(compressed, with: exact, pieces: 4096) == Self.sample)
    }

    /// A frame that needs a 16 MiB window is refused by default (RFC 9659's 8 MiB) and accepted when allowed.
    @Test func aWindowBeyondTheLimitThrows() throws {
        let plain = DataPath.bytes(1 << 20) + DataPath.text(20 << 20)
        let compressed = try CompressionTool.zstd(plain, level: 3, extra: "--long=24")
        #expect(failsToDecode { try decode(compressed, pieces: 65_536) })
        let wide = ZstdContentCodec(configuration: .init(maxWindowLog: 24))
        #expect(try decode(compressed, with: wide, pieces: 65_536) == plain ? true : false, "the bytes differ")
    }

    @Test func theCodecOffersZstdAndDecodesOnly() throws {
        let codec = ZstdContentCodec.zstd()
        #expect(codec.isAvailable)
        #expect(codec.encodings == ["zstd"])
        #expect(ZstdContentCodec.libraryVersion?.hasPrefix("1.") == true)
        #expect(throws: ClientError.self) { try codec.makeDecoder(for: "br") }
        #expect(throws: ClientError.self) { try codec.makeEncoder(for: "zstd") }
        _ = try codec.makeDecoder(for: "ZSTD")
    }

    /// On a machine without libzstd the codec offers nothing, so `zstd` is neither advertised nor decoded.
    @Test func withoutTheLibraryNothingIsOffered() throws {
        let codec = ZstdContentCodec(libraryName: "libzstd.so.0-not-installed")
        #expect(!codec.isAvailable)
        #expect(codec.encodings.isEmpty)
        do {
            _ = try codec.makeDecoder(for: "zstd")
            Issue.record("a decoder without the library")
        } catch let error as ClientError {
            #expect(error.code == .invalidConfiguration)
        }
    }
}
