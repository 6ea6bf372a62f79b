import CZlib
import HTTPCore

/// Inflates one body, streaming, and enforces the codec's size and ratio limits as it goes.
final class ZlibDecoder: ContentDecoder {
    /// Which framings the decoder accepts.
    enum Format {
        /// gzip or zlib, detected by zlib itself (`windowBits` 15 + 32); gzip members may follow each other.
        case gzipOrZlib
        /// zlib when the first two bytes are a zlib header, raw deflate otherwise.
        case zlibOrRaw
    }

    private let format: Format
    private let limits: DecompressionLimits
    private var stream: ZlibStream?
    /// The first byte of a `deflate` body, held until the second arrives to tell zlib from raw.
    private var held: [UInt8] = []
    /// Whether the current stream (or gzip member) reached its end.
    private var ended = false
    /// Whether any input arrived; an empty body decodes to nothing.
    private var sawInput = false
    private var consumed: Int64 = 0
    private var decoded: Int64 = 0

    init(format: Format, limits: DecompressionLimits) throws {
        self.format = format
        self.limits = limits
        if format == .gzipOrZlib { stream = try Self.makeStream(windowBits: 15 + 32) }
    }

    func decode(_ chunk: [UInt8]) throws -> [UInt8] {
        guard !chunk.isEmpty else { return [] }
        sawInput = true
        guard let stream = try streamReady(for: chunk) else { return [] }
        if held.isEmpty { return try inflate(chunk, stream) }
        let input = held + chunk
        held = []
        return try inflate(input, stream)
    }

    func finish() throws -> [UInt8] {
        guard sawInput else { return [] }
        guard ended else {
            throw ClientError(.compressionFailed, message: "The compressed body ended before its compressed stream did")
        }
        return []
    }

    /// The stream to feed, made once the framing is known; `nil` while a `deflate` body's first byte waits.
    private func streamReady(for chunk: [UInt8]) throws -> ZlibStream? {
        if let stream { return stream }
        guard held.count + chunk.count >= 2 else {
            held += chunk
            return nil
        }
        let first = held.first ?? chunk[0]
        let second = held.isEmpty ? chunk[1] : chunk[0]
        let isZlib = first & 0x0F == 8 && first >> 4 <= 7 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
        let made = try Self.makeStream(windowBits: isZlib ? 15 : -15)
        stream = made
        return made
    }

    /// Inflates `input` straight into the stream's output buffer (reused from chunk to chunk, doubled only when a
    /// chunk inflates to more than any before) and copies the result once into an array of its exact size.
    private func inflate(_ input: [UInt8], _ stream: ZlibStream) throws -> [UInt8] {
        var filled = 0
        try input.withUnsafeBufferPointer { input in
            var offset = 0
            while offset < input.count {
                if ended {
                    guard format == .gzipOrZlib else {
                        throw ClientError(.compressionFailed, message: "Data follows the end of the compressed stream")
                    }
                    _ = CZlib.inflateReset(stream.pointer)  // the next gzip member
                    ended = false
                }
                let rest = UnsafeBufferPointer(rebasing: input[offset...])
                stream.setInput(rest)
                defer { stream.clearInput() }
                try run(stream, filled: &filled)
                offset = input.count - stream.pendingInput
            }
        }
        guard filled > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: filled) { output, count in
            _ = output.initialize(from: UnsafeBufferPointer(rebasing: stream.buffer[..<filled]))
            count = filled
        }
    }

    /// Inflates until the input is used up or the stream ends, appending to the stream's buffer after `filled`.
    private func run(_ stream: ZlibStream, filled: inout Int) throws {
        while true {
            if filled == stream.buffer.count { stream.growBuffer() }
            stream.setOutput(from: filled)
            let before = stream.pendingInput
            let room = stream.buffer.count - filled
            let status = CZlib.inflate(stream.pointer, Z_NO_FLUSH)
            let produced = room - Int(stream.pointer.pointee.avail_out)
            filled += produced
            consumed += Int64(before - stream.pendingInput)
            decoded += Int64(produced)
            try checkLimits()
            switch status {
            case Z_STREAM_END:
                ended = true
                return
            case Z_OK:
                if stream.pendingInput == 0 && filled < stream.buffer.count { return }
            case Z_BUF_ERROR:
                if stream.pendingInput == 0 { return }  // needs more input
                throw ZlibStream.error("Cannot inflate the body", status: status, stream: stream.pointer)
            case Z_NEED_DICT:
                throw ClientError(.compressionFailed, message: "The compressed body needs a preset dictionary")
            default:
                throw ZlibStream.error("The compressed body is corrupt", status: status, stream: stream.pointer)
            }
        }
    }

    private func checkLimits() throws {
        try limits.check(decoded: decoded, consumed: consumed)
    }

    private static func makeStream(windowBits: Int32) throws -> ZlibStream {
        try ZlibStream(
            initialize: { c_zlib_inflate_init2($0, windowBits) },
            end: { CZlib.inflateEnd($0) })
    }
}
