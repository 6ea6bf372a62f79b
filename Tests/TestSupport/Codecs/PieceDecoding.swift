package import HTTPCore

/// Decodes `bytes` with a fresh decoder of `codec` for `encoding`, fed in pieces of `size` bytes, then finishes it:
/// the one chunking loop the codec plug-ins' tests share (STYLE.md §6 asks for every chunking).
/// - Parameters:
///   - bytes: The encoded body.
///   - codec: The codec under test.
///   - encoding: The content coding to decode (`gzip`, `br`, `zstd`, ...).
///   - size: The size of each piece; the last may be shorter.
/// - Returns: The decoded bytes.
/// - Throws: What the decoder throws.
package func decodeInPieces(
    _ bytes: [UInt8], with codec: some ContentCodec, encoding: String, pieces size: Int
) throws -> [UInt8] {
    let decoder = try codec.makeDecoder(for: encoding)
    var output: [UInt8] = []
    var offset = 0
    while offset < bytes.count {
        output += try decoder.decode(Array(bytes[offset..<min(offset + size, bytes.count)]))
        offset += size
    }
    return output + (try decoder.finish())
}

/// Decodes `bytes` as the pipeline's streaming reader does with a ``BoundedContentDecoder``: input arrives in pieces
/// of `size` bytes, the decoder is asked for at most `limit` bytes at a time and keeps the input it did not use, and
/// it is drained before more input is given to it.
/// - Parameters:
///   - bytes: The encoded body.
///   - codec: The codec; its decoder must be bounded.
///   - encoding: The coding to decode.
///   - size: The input piece size.
///   - limit: The most decoded bytes per call.
/// - Returns: The decoded bytes, and the largest piece one call returned.
/// - Throws: What the decoder throws, or ``ClientError/Code/compressionFailed`` when a call neither used input nor
///   returned bytes while input was left, or when the decoder is not bounded.
package func decodeBounded(
    _ bytes: [UInt8], with codec: some ContentCodec, encoding: String, pieces size: Int, atMost limit: Int
) throws -> (output: [UInt8], largest: Int) {
    guard let decoder = try codec.makeDecoder(for: encoding) as? any BoundedContentDecoder else {
        throw ClientError(.compressionFailed, message: "not a bounded decoder")
    }
    var output: [UInt8] = []
    var largest = 0
    var offset = 0
    repeat {
        var pending = bytes[offset..<min(offset + size, bytes.count)]
        offset += pending.count
        var mayHoldOutput = false
        while !pending.isEmpty || mayHoldOutput {
            let (piece, used) = try pending.withUnsafeBytes { try decoder.decode($0, atMost: limit) }
            guard used > 0 || !piece.isEmpty || pending.isEmpty else {
                throw ClientError(.compressionFailed, message: "no progress")
            }
            pending = pending.dropFirst(used)
            output += piece
            largest = max(largest, piece.count)
            mayHoldOutput = piece.count == limit
            if piece.isEmpty && pending.isEmpty { break }
        }
    } while offset < bytes.count
    return (output + (try decoder.finish()), largest)
}

/// Reads `compressed` from an already made bounded `decoder` as the streaming reader does, 64 KiB at a time, without
/// finishing it, and notes the most of `observe()` seen while it decodes (the large-body tests watch the decoder's
/// mapped allocations with it).
/// - Parameters:
///   - compressed: The encoded body, given whole.
///   - decoder: The decoder, prepared as the test needs.
///   - observe: What to watch after each call.
/// - Returns: The decoded bytes, and the largest value `observe()` returned.
/// - Throws: What the decoder throws.
package func readBounded(
    _ compressed: [UInt8], with decoder: any BoundedContentDecoder, observe: () -> Int
) throws -> (output: [UInt8], observed: Int) {
    var output: [UInt8] = []
    var pending = compressed[...]
    var mayHoldOutput = false
    var observed = 0
    while !pending.isEmpty || mayHoldOutput {
        let (piece, used) = try pending.withUnsafeBytes { try decoder.decode($0, atMost: 64 * 1024) }
        pending = pending.dropFirst(used)
        output += piece
        mayHoldOutput = piece.count == 64 * 1024
        observed = max(observed, observe())
        if piece.isEmpty && used == 0 { break }
    }
    return (output, observed)
}

/// Whether `body` throws a ``ClientError`` with ``ClientError/Code/compressionFailed``.
/// - Parameter body: The decoding to run.
/// - Returns: `true` only for that error; `false` when `body` returns or throws anything else.
package func failsToDecode(_ body: () throws -> [UInt8]) -> Bool {
    do {
        _ = try body()
        return false
    } catch let error as ClientError {
        return error.code == .compressionFailed
    } catch {
        return false
    }
}
