import CZlib
import HTTPCore

/// Deflates one body, streaming, with gzip or zlib framing.
final class ZlibEncoder: ContentEncoder {
    private let stream: ZlibStream
    private var finished = false

    init(gzip: Bool, level: Int) throws {
        let windowBits: Int32 = gzip ? 15 + 16 : 15
        stream = try ZlibStream(
            initialize: { c_zlib_deflate_init2($0, Int32(level), windowBits) },
            end: { CZlib.deflateEnd($0) })
    }

    func encode(_ chunk: [UInt8]) throws -> [UInt8] {
        guard !chunk.isEmpty else { return [] }
        guard !finished else { throw ClientError(.compressionFailed, message: "The encoder was already finished") }
        return try chunk.withUnsafeBufferPointer { try run($0, flush: Z_NO_FLUSH) }
    }

    func finish() throws -> [UInt8] {
        guard !finished else { return [] }
        finished = true
        return try run(UnsafeBufferPointer(start: nil, count: 0), flush: Z_FINISH)
    }

    private func run(_ input: UnsafeBufferPointer<UInt8>, flush: Int32) throws -> [UInt8] {
        var output: [UInt8] = []
        stream.setInput(input)
        defer { stream.clearInput() }
        while true {
            stream.resetOutput()
            let status = CZlib.deflate(stream.pointer, flush)
            let produced = stream.produced
            if produced > 0 { output.append(contentsOf: UnsafeBufferPointer(rebasing: stream.buffer[..<produced])) }
            switch status {
            case Z_STREAM_END:
                return output
            case Z_OK, Z_BUF_ERROR:
                if flush != Z_FINISH && stream.pendingInput == 0 && produced < stream.buffer.count { return output }
                if status == Z_BUF_ERROR && produced == 0 {
                    throw ZlibStream.error("Cannot deflate the body", status: status, stream: stream.pointer)
                }
            default:
                throw ZlibStream.error("Cannot deflate the body", status: status, stream: stream.pointer)
            }
        }
    }
}
