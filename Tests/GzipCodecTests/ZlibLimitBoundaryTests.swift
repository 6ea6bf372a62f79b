import GzipCodec
import HTTPCore
import Testing

/// The codec's default bomb guard at its boundary (`Docs/Limits.md`): any body may decode to 1 MiB
/// (`ratioThreshold`) whatever its ratio; one byte more at a ratio above 200 (`maxRatio`) fails.
@Suite struct ZlibLimitBoundaryTests {
    @Test(arguments: ["gzip", "deflate"])
    func oneMebibyteOfZerosDecodesOneByteMoreDoesNot(_ encoding: String) throws {
        let threshold = 1 << 20
        let fits = try encode([UInt8](repeating: 0, count: threshold), as: encoding)
        #expect(fits.count * 200 < threshold, "the ratio is far above 200")
        #expect(try decode(fits, as: encoding, pieces: 512).count == threshold)

        let over = try encode([UInt8](repeating: 0, count: threshold + 1), as: encoding)
        let error = try #require(throws: ClientError.self) { _ = try decode(over, as: encoding, pieces: 512) }
        #expect(error.code == .compressionFailed)
        #expect(error.message == "The body inflates more than 200 times its compressed size")
    }

    @Test func aRatioUnder200PassesTheThreshold() throws {
        // Letters from a small alphabet compress a few times: past 1 MiB, under the ratio, they decode whole.
        var state: UInt32 = 2_463_534_242
        let text: [UInt8] = (0..<(2 << 20)).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(ascii: "a") + UInt8(state % 4)
        }
        let encoded = try encode(text, as: "gzip")
        #expect(text.count > 1 << 20 && text.count / encoded.count < 200)
        #expect(try decode(encoded, as: "gzip", pieces: 4_096) == text)
    }
}
