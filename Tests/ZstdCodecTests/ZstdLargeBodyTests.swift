import HTTPCore
import TestSupport
import Testing
@testable import ZstdCodec

/// A body the response says is large: the decoder maps its window for huge pages (decision 0039) and decodes it to
/// the same bytes as without; a small or unannounced body keeps its window on malloc.
@Suite(.enabled(if: CompressionTool.shouldRun))
struct ZstdLargeBodyTests {
    /// 6 MiB of text and 256 KiB of noise: more than zstd -3's 2 MiB window, and more than 256 KiB compressed.
    static let plain = DataPath.text(6 << 20) + DataPath.bytes(256 * 1024)

    @Test(arguments: [Int64?.none, 10_000, 1 << 30])
    func theWindowIsMappedOnlyForABodyAnnouncedLargeAndDecodesTheSame(announced: Int64?) throws {
        let compressed = try CompressionTool.zstd(Self.plain)
        let decoder = try #require(try ZstdContentCodec.zstd().makeDecoder(for: "zstd") as? ZstdDecoder)
        if let announced { decoder.prepare(forEncodedLength: announced) }
        let (output, mapped) = try readBounded(compressed, with: decoder) { decoder.mappedAllocations }
        #expect(LargeBytes.equal(output, Self.plain))
        #expect(mapped == ((announced ?? 0) >= ZstdDecoder.largeBodyLength ? 1 : 0))
        #expect(try decoder.finish().isEmpty)
    }

    /// A corrupt large body still fails with its window mapped: the frame's checksum catches the flipped bit.
    @Test func aCorruptLargeBodyThrows() throws {
        var compressed = try CompressionTool.zstd(Self.plain)
        compressed[compressed.count / 2] ^= 0x40
        let decoder = try #require(try ZstdContentCodec.zstd().makeDecoder(for: "zstd") as? ZstdDecoder)
        decoder.prepare(forEncodedLength: Int64(compressed.count))
        #expect(failsToDecode {
            let output = try readBounded(compressed, with: decoder) { 0 }.output
            return output + (try decoder.finish())
        })
    }
}
