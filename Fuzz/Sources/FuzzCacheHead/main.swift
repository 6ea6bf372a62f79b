// Fuzzes DiskCache's stored-head decoding (the `.head` files that hold a cached response's status and fields).
//
// The input is framed as a valid head file (magic, version, length, payload, SHA-256) so the fuzzer reaches the
// payload decoder past the checksum; the raw input is decoded too. Invariant: a decoded head survives
// re-encoding and decoding unchanged, and its body length is not negative.
import FuzzSupport
import HTTPCore
@testable import DiskCache

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    var file = HeadFile.magic
    let version = HeadFile.version
    withUnsafeBytes(of: version.littleEndian) { file += $0 }
    withUnsafeBytes(of: UInt32(input.bytes.count).littleEndian) { file += $0 }
    file += input.bytes
    file += SHA256.digest(file)
    for candidate in [file, input.bytes] {
        guard let head = HeadFile(decoding: candidate) else { continue }
        fuzzCheck(head.bodyLength >= 0, "negative body length")
        fuzzCheck(HeadFile(decoding: head.encoded()) == head, "a decoded head does not survive re-encoding")
    }
    return 0
}

runLibFuzzer { fuzz($0, $1) }
