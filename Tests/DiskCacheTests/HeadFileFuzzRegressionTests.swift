@testable import DiskCache
import Foundation
import HTTPCore
import Testing

/// Inputs found by the `FuzzCacheHead` fuzz target (Fuzz/, scripts/fuzz.sh) that once crashed the head decoder.
struct HeadFileFuzzRegressionTests {
    /// A head file framed like `HeadFile.encoded()` (magic, version, length, payload, SHA-256 of the rest).
    static func framed(_ payload: [UInt8]) -> [UInt8] {
        var file = HeadFile.magic
        withUnsafeBytes(of: HeadFile.version.littleEndian) { file += $0 }
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { file += $0 }
        file += payload
        return file + SHA256.digest(file)
    }

    /// A checksum-valid head whose stored status code is outside 0...999 trapped in `HTTPResponse.Status(code:)`
    /// (a precondition) instead of reading as no entry. The checksum is not a MAC: anyone who can write the cache
    /// directory, or another build's bug, can produce such a file.
    @Test func aStoredStatusCodeOutsideTheHTTPRangeReadsAsNoEntry() {
        let payload: [UInt8] = [
            0x18, 0x00, 0x00, 0x00, 0x47, 0x45, 0x54, 0x20, 0x68, 0x74, 0x74, 0x70, 0x73, 0x3A, 0x2F, 0x2F,
            0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65, 0x2E, 0x63, 0x6F, 0x6D, 0x2F, 0x09, 0x00, 0x00, 0x00,
            0x62, 0x6F, 0x64, 0x79, 0x2D, 0x30, 0x30, 0x30, 0x31, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x1E, 0x02, 0x00, 0x00, 0x00, 0x4F, 0x0B, 0x00, 0x00, 0x00, 0x00, 0x84, 0xD7, 0xC7,
            0x41, 0x01, 0x00, 0x00, 0x00, 0x08, 0x8B, 0xD7, 0xC7, 0x41, 0x00, 0x02, 0x00, 0x00, 0x00, 0x0C,
            0x00, 0x00, 0x00, 0x43, 0x6F, 0x6E, 0x74, 0x65, 0x6E, 0x74, 0x2D, 0x54, 0x79, 0x70, 0x65, 0x0A,
            0x00, 0x00, 0x00, 0x74, 0x65, 0x7C, 0x74, 0x2F, 0x70, 0x6C, 0x61, 0x69, 0x6E, 0x0D, 0x00, 0x00,
            0x00, 0x43, 0x61, 0x63, 0x68, 0x65, 0x2D, 0x43, 0x6F, 0x6E, 0x74, 0x72, 0x6F, 0x6C, 0x0C, 0x00,
            0x00, 0x00, 0x6D, 0x61, 0x78, 0x2D, 0x61, 0x67, 0x65, 0x3D, 0x33, 0x36, 0x30, 0x30, 0x01, 0x00,
            0x00, 0x00, 0x0F, 0x00, 0x00, 0x00, 0x41, 0x63, 0x63, 0x65, 0x70, 0x74, 0x2D, 0x45, 0x6E, 0x63,
            0x6F, 0x64, 0x69, 0x6E, 0x67, 0x04, 0x00, 0x00, 0x00, 0x67, 0x7A, 0x69, 0x70,
        ]
        #expect(HeadFile(decoding: Self.framed(payload)) == nil)
    }

    /// The status codes the decoder accepts are exactly those a response can have.
    @Test(arguments: [0, 99, 100, 599, 999, 1000, 65535])
    func statusCodesAreCheckedWhenDecoding(code: Int) throws {
        let head = CachedResponseHead(
            status: HTTPResponse.Status(code: 200), headerFields: HTTPFields(), storedAt: .init(), expiresAt: nil,
            storagePolicy: .permanent, varyingRequestFields: HTTPFields())
        var bytes = HeadFile(key: "k", bodyName: "b", bodyLength: 1, head: head).encoded()
        // The status follows magic, version, length, then the key, the body name and the body length.
        let offset = HeadFile.magic.count + 6 + (4 + 1) + (4 + 1) + 8
        try #require(bytes[offset] == 200 && bytes[offset + 1] == 0)
        bytes[offset] = UInt8(code & 0xFF)
        bytes[offset + 1] = UInt8(code >> 8)
        let decoded = HeadFile(decoding: Self.framed(Array(bytes[(HeadFile.magic.count + 6)..<(bytes.count - 32)])))
        let valid = (100...999).contains(code)
        #expect(decoded?.head.status.code == (valid ? code : nil))
    }

    /// A checksum-valid head with a NaN or infinite stored or expiry time decoded, and a NaN date made every
    /// freshness comparison false (and the head unequal to itself).
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNonFiniteStoredOrExpiryTimeReadsAsNoEntry(time: Double) throws {
        let (storedAt, expiresAt) = (12_345.0, 67_890.0)
        let head = CachedResponseHead(
            status: HTTPResponse.Status(code: 200), headerFields: HTTPFields(),
            storedAt: .init(timeIntervalSinceReferenceDate: storedAt),
            expiresAt: .init(timeIntervalSinceReferenceDate: expiresAt), storagePolicy: .permanent,
            varyingRequestFields: HTTPFields())
        let bytes = HeadFile(key: "k", bodyName: "b", bodyLength: 1, head: head).encoded()
        #expect(HeadFile(decoding: bytes) != nil)
        let payload = Array(bytes[(HeadFile.magic.count + 6)..<(bytes.count - 32)])
        for original in [storedAt, expiresAt] {
            let pattern = withUnsafeBytes(of: original.bitPattern.littleEndian) { Array($0) }
            let offset = try #require(
                (0...(payload.count - 8)).first { Array(payload[$0..<($0 + 8)]) == pattern })
            var damaged = payload
            damaged.replaceSubrange(
                offset..<(offset + 8), with: withUnsafeBytes(of: time.bitPattern.littleEndian) { Array($0) })
            #expect(HeadFile(decoding: Self.framed(damaged)) == nil, "time \(time) in place of \(original)")
        }
    }
}
