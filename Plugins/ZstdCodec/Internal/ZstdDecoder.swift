import CZstd
import HTTPCore

/// Decodes one `zstd` body, streaming, and enforces the codec's size, ratio and window limits as it goes.
final class ZstdDecoder: ContentDecoder {
    /// The size of the output buffer, doubled when one chunk decodes to more.
    static let bufferSize = 256 * 1024

    private let functions: c_zstd_functions
    private let limits: DecompressionLimits
    private let stream: UnsafeMutableRawPointer
    /// Reused from chunk to chunk; it grows only when a chunk decodes to more than any before it.
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    /// Whether the input so far ends at the end of a frame (true before any input).
    private var atFrameEnd = true
    private var consumed: Int64 = 0
    private var decoded: Int64 = 0

    init(library: ZstdLibrary, limits: DecompressionLimits, maxWindowLog: Int) throws {
        functions = library.functions
        self.limits = limits
        guard let stream = functions.createDStream!() else {
            throw ClientError(.compressionFailed, message: "libzstd could not start a decoder")
        }
        self.stream = stream
        buffer = .allocate(capacity: Self.bufferSize)
        let status = functions.setParameter!(stream, Int32(C_ZSTD_D_WINDOW_LOG_MAX), Int32(maxWindowLog))
        if functions.isError!(status) != 0 {
            throw error("libzstd refused the window limit", status)
        }
    }

    deinit {
        _ = functions.freeDStream!(stream)
        buffer.deallocate()
    }

    func decode(_ chunk: [UInt8]) throws -> [UInt8] {
        guard !chunk.isEmpty else { return [] }
        var filled = 0
        try chunk.withUnsafeBytes { chunk in
            var input = c_zstd_in_buffer(src: chunk.baseAddress, size: chunk.count, pos: 0)
            while true {
                if filled == buffer.count { grow() }
                var output = c_zstd_out_buffer(
                    dst: UnsafeMutableRawPointer(buffer.baseAddress! + filled), size: buffer.count - filled, pos: 0)
                let before = input.pos
                let status = functions.decompressStream!(stream, &output, &input)
                filled += output.pos
                consumed += Int64(input.pos - before)
                decoded += Int64(output.pos)
                if functions.isError!(status) != 0 { throw error("The zstd body is corrupt", status) }
                try checkLimits()
                // 0: a frame is complete and flushed. A call that moved nothing (the buffer was exactly full)
                // says nothing new about where the input ends.
                if status == 0 {
                    atFrameEnd = true
                } else if input.pos > before || output.pos > 0 {
                    atFrameEnd = false
                }
                if input.pos == input.size && output.pos < output.size { return }
            }
        }
        guard filled > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: filled) { output, count in
            _ = output.initialize(from: UnsafeBufferPointer(rebasing: buffer[..<filled]))
            count = filled
        }
    }

    func finish() throws -> [UInt8] {
        guard atFrameEnd else {
            throw ClientError(.compressionFailed, message: "The compressed body ended inside a zstd frame")
        }
        return []
    }

    /// Doubles the output buffer, keeping its bytes.
    private func grow() {
        let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: buffer.count * 2)
        _ = grown.initialize(from: buffer)
        buffer.deallocate()
        buffer = grown
    }

    private func error(_ text: String, _ status: Int) -> ClientError {
        let name = functions.errorName!(status).map { String(cString: $0) } ?? "unknown error"
        return ClientError(.compressionFailed, message: "\(text): \(name)")
    }

    private func checkLimits() throws {
        try limits.check(decoded: decoded, consumed: consumed)
    }
}
