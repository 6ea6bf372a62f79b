import GzipCodec
import HTTPCore
import TestSupport
import Testing

/// Sample bodies: empty, tiny, text, incompressible, and larger than zlib's output buffer.
enum Samples {
    static let text = Array(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 2_000).utf8)
    static let noise: [UInt8] = {
        var state: UInt32 = 2_463_534_242
        return (0..<300_000).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }()
    static let all: [[UInt8]] = [[], [42], Array("hello\n".utf8), text, noise, text + noise + text]
}

/// Feeds `bytes` to a fresh decoder in pieces of `size` bytes.
func decode(
    _ bytes: [UInt8], as encoding: String, pieces size: Int, codec: ZlibContentCodec = .zlib()
) throws -> [UInt8] {
    try decodeInPieces(bytes, with: codec, encoding: encoding, pieces: size)
}

/// Encodes `bytes` with a fresh encoder in pieces of `size` bytes.
func encode(
    _ bytes: [UInt8], as encoding: String, pieces size: Int = 65_536, codec: ZlibContentCodec = .zlib()
)
    throws -> [UInt8]
{
    let encoder = try codec.makeEncoder(for: encoding)
    var output: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let end = min(index + size, bytes.count)
        output += try encoder.encode(Array(bytes[index..<end]))
        index = end
    }
    return output + (try encoder.finish())
}

@Suite struct ZlibRoundTripTests {
    @Test(arguments: ["gzip", "deflate"])
    func everySampleSurvivesARoundTrip(encoding: String) throws {
        for sample in Samples.all {
            let encoded = try encode(sample, as: encoding)
            #expect(try decode(encoded, as: encoding, pieces: 1 << 20) == sample)
        }
    }

    @Test(arguments: [1, 2, 3, 7, 100, 4_096, 65_537])
    func everyChunkingDecodesTheSame(size: Int) throws {
        let sample = Samples.text + Samples.noise.prefix(20_000)
        for encoding in ["gzip", "deflate"] {
            let encoded = try encode(sample, as: encoding, pieces: 1_000)
            #expect(try decode(encoded, as: encoding, pieces: size) == sample)
        }
    }

    @Test func gzipFramingStartsWithTheMagicNumber() throws {
        let encoded = try encode(Samples.text, as: "gzip")
        #expect(Array(encoded.prefix(3)) == [0x1F, 0x8B, 8])
        #expect(encoded.count < Samples.text.count / 10)
    }

    @Test func deflateAcceptsAZlibStreamAndRawDeflate() throws {
        let zlib = try encode(Samples.text, as: "deflate")
        #expect(zlib[0] & 0x0F == 8)
        let raw = Array(zlib.dropFirst(2).dropLast(4))
        for size in [1, 2, 5, 1_000] {
            #expect(try decode(zlib, as: "deflate", pieces: size) == Samples.text)
            #expect(try decode(raw, as: "deflate", pieces: size) == Samples.text)
        }
    }

    @Test func gzipAlsoAcceptsAZlibStream() throws {
        let zlib = try encode(Samples.text, as: "deflate")
        #expect(try decode(zlib, as: "gzip", pieces: 10) == Samples.text)
        #expect(try decode(zlib, as: "x-gzip", pieces: 10) == Samples.text)
    }

    @Test func concatenatedGzipMembersDecodeToTheConcatenation() throws {
        let first = try encode(Array("first\n".utf8), as: "gzip")
        let second = try encode(Samples.text, as: "gzip")
        for size in [1, 3, 64, 100_000] {
            #expect(try decode(first + second, as: "gzip", pieces: size) == Array("first\n".utf8) + Samples.text)
        }
    }

    @Test func anEmptyBodyDecodesToNothing() throws {
        #expect(try decode([], as: "gzip", pieces: 1) == [])
        #expect(try decode([], as: "deflate", pieces: 1) == [])
    }

    @Test(arguments: [0, 1, 9])
    func everyLevelRoundTrips(level: Int) throws {
        let codec = ZlibContentCodec.zlib(.init(compressionLevel: level))
        let encoded = try encode(Samples.text, as: "gzip", codec: codec)
        #expect(try decode(encoded, as: "gzip", pieces: 777) == Samples.text)
        if level == 0 { #expect(encoded.count > Samples.text.count) }
    }

    @Test func otherCodingsAreRejected() {
        let codec = ZlibContentCodec.zlib()
        #expect(codec.encodings == ["deflate", "gzip"])
        #expect(throws: ClientError.self) { try codec.makeDecoder(for: "br") }
        #expect(throws: ClientError.self) { try codec.makeEncoder(for: "zstd") }
    }
}

@Suite struct ZlibFailureTests {
    static func failure(_ body: () throws -> [UInt8]) -> ClientError? {
        do {
            _ = try body()
            return nil
        } catch let error as ClientError {
            return error
        } catch {
            return nil
        }
    }

    @Test(arguments: ["gzip", "deflate"])
    func truncatedInputFailsAtEveryCut(encoding: String) throws {
        let encoded = try encode(Samples.text, as: encoding)
        for cut in [1, 2, 10, encoded.count / 2, encoded.count - 1] {
            let error = Self.failure { try decode(Array(encoded.prefix(cut)), as: encoding, pieces: 3) }
            #expect(error?.code == .compressionFailed, "cut at \(cut)")
        }
    }

    @Test func corruptInputFails() throws {
        var encoded = try encode(Samples.text, as: "gzip")
        encoded[encoded.count / 2] ^= 0xFF
        encoded[encoded.count / 2 + 1] ^= 0x55
        #expect(Self.failure { try decode(encoded, as: "gzip", pieces: 100) }?.code == .compressionFailed)
        let garbage = Array("this is not compressed at all".utf8)
        #expect(Self.failure { try decode(garbage, as: "gzip", pieces: 100) }?.code == .compressionFailed)
        #expect(Self.failure { try decode(garbage, as: "deflate", pieces: 1) }?.code == .compressionFailed)
    }

    @Test func aWrongChecksumFails() throws {
        var encoded = try encode(Samples.text, as: "gzip")
        encoded[encoded.count - 6] ^= 1  // CRC-32 in the trailer
        #expect(Self.failure { try decode(encoded, as: "gzip", pieces: 4_096) }?.code == .compressionFailed)
    }

    @Test func dataAfterAZlibStreamFails() throws {
        let encoded = try encode(Samples.text, as: "deflate") + [1, 2, 3]
        #expect(Self.failure { try decode(encoded, as: "deflate", pieces: 50) }?.code == .compressionFailed)
    }

    @Test func garbageAfterAGzipMemberFails() throws {
        let encoded = try encode(Samples.text, as: "gzip") + Array("trailing".utf8)
        #expect(Self.failure { try decode(encoded, as: "gzip", pieces: 50) }?.code == .compressionFailed)
    }

    @Test func aBombIsStoppedByTheRatioLimit() throws {
        let zeros = [UInt8](repeating: 0, count: 64 << 20)
        let bomb = try encode(zeros, as: "gzip", pieces: 1 << 20)
        #expect(bomb.count < 100_000)
        let decoder = try ZlibContentCodec.zlib().makeDecoder(for: "gzip")
        var decoded = 0
        let error = Self.failure {
            var index = 0
            while index < bomb.count {
                decoded += try decoder.decode(Array(bomb[index..<min(index + 16_384, bomb.count)])).count
                index += 16_384
            }
            return try decoder.finish()
        }
        #expect(error?.code == .compressionFailed)
        #expect(decoded < 4 << 20, "stopped soon after the threshold, not after inflating everything")
    }

    @Test func theSizeLimitStopsLargeOutput() throws {
        let codec = ZlibContentCodec.zlib(.init(maxDecodedBytes: 100_000, maxRatio: nil))
        let encoded = try encode(Samples.noise, as: "gzip")
        #expect(
            Self.failure { try decode(encoded, as: "gzip", pieces: 4_096, codec: codec) }?.code == .compressionFailed)
        let small = try encode(Array(Samples.noise.prefix(100_000)), as: "gzip")
        #expect(try decode(small, as: "gzip", pieces: 4_096, codec: codec).count == 100_000)
    }

    @Test func limitsCanBeLifted() throws {
        let zeros = [UInt8](repeating: 0, count: 8 << 20)
        let bomb = try encode(zeros, as: "gzip", pieces: 1 << 20)
        let codec = ZlibContentCodec.zlib(.init(maxRatio: nil))
        #expect(try decode(bomb, as: "gzip", pieces: 65_536, codec: codec) == zeros)
    }
}
