import HTTPCore
import TestSupport
import Testing
@testable import BrotliCodec

/// A body the response says is large: the decoder maps its ring buffer for huge pages (decision 0039) and decodes it to
/// the same bytes as without; a small or unannounced body keeps its ring buffer on malloc.
@Suite(.enabled(if: CompressionTool.shouldRun))
struct BrotliLargeBodyTests {
    /// 6 MiB of text and 256 KiB of noise: more than brotli -q 5's 4 MiB window, and more than 256 KiB compressed.
    static let plain = DataPath.text(6 << 20) + DataPath.bytes(256 * 1024)

    @Test(arguments: [Int64?.none, 10_000, 1 << 30])
    func theWindowIsMappedOnlyForABodyAnnouncedLargeAndDecodesTheSame(announced: Int64?) throws {
        let compressed = try CompressionTool.brotli(Self.plain)
        let decoder = try #require(try BrotliContentCodec.brotli().makeDecoder(for: "br") as? BrotliDecoder)
        if let announced { decoder.prepare(forEncodedLength: announced) }
        let (output, mapped) = try readBounded(compressed, with: decoder) { decoder.mappedAllocations }
        #expect(LargeBytes.equal(output, Self.plain))
        #expect(mapped == ((announced ?? 0) >= BrotliDecoder.largeBodyLength ? 1 : 0))
        #expect(try decoder.finish().isEmpty)
    }

    /// A large body cut short still fails at its end with its ring buffer mapped (brotli has no checksum for a
    /// flipped bit to trip).
    @Test func aTruncatedLargeBodyThrows() throws {
        let compressed = Array(try CompressionTool.brotli(Self.plain).dropLast(1000))
        let decoder = try #require(try BrotliContentCodec.brotli().makeDecoder(for: "br") as? BrotliDecoder)
        decoder.prepare(forEncodedLength: Int64(compressed.count))
        #expect(failsToDecode {
            let output = try readBounded(compressed, with: decoder) { 0 }.output
            return output + (try decoder.finish())
        })
    }
}
