// Fuzzes GzipCodec's decoder (gzip, zlib and raw deflate; multi-member gzip) fed in random pieces.
//
// Input: control bytes pick the encoding and the split points; the payload is the compressed body.
// Invariants: errors are ClientErrors with compressionFailed (the cap: also a bounded bomb is an error, never
// unbounded memory); decoded output never exceeds the cap; decoding in pieces yields the same bytes as one shot.
import FuzzSupport
import GzipCodec
import HTTPCore

let cap: Int64 = 1 << 20
let codec = ZlibContentCodec(configuration: .init(maxDecodedBytes: cap, maxRatio: 200, ratioThreshold: 64 * 1024))

func decode(_ pieces: [ArraySlice<UInt8>], encoding: String) -> [UInt8]? {
    do {
        let decoder = try codec.makeDecoder(for: encoding)
        var output: [UInt8] = []
        for piece in pieces {
            output += try decoder.decode(Array(piece))
            fuzzCheck(Int64(output.count) <= cap, "decoded \(output.count) bytes past the cap")
        }
        output += try decoder.finish()
        fuzzCheck(Int64(output.count) <= cap, "decoded \(output.count) bytes past the cap")
        return output
    } catch {
        fuzzCheckClientError(error, codes: [.compressionFailed])
        return nil
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let (control, payload) = input.controlAndPayload()
    let encoding = (control.first ?? 0) & 1 == 0 ? "gzip" : "deflate"
    let whole = decode([payload], encoding: encoding)
    let split = decode(FuzzInput.split(payload, by: control.dropFirst()), encoding: encoding)
    // The ratio guard may trip at a different point, but success must agree in content.
    if let whole, let split { fuzzCheck(whole == split, "whole and split decodes differ") }
    return 0
}

runLibFuzzer { fuzz($0, $1) }
