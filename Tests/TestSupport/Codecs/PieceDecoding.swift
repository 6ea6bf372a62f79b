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
