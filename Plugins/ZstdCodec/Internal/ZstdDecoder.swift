import CZstd
import HTTPCore

/// Decodes one `zstd` body, streaming, and enforces the codec's size, ratio and window limits as it goes.
final class ZstdDecoder: BoundedContentDecoder {
    /// The size of the output buffer of ``decode(_:)``, doubled when one chunk decodes to more.
    static let bufferSize = 256 * 1024

    /// The smallest encoded body whose window is mapped for huge pages (``prepare(forEncodedLength:)``): text
    /// compresses 8 to 10 times, so such a body fills a window of 2 MiB, the size a huge page needs.
    static let largeBodyLength: Int64 = 256 * 1024

    private let functions: c_zstd_functions
    private let limits: DecompressionLimits
    /// Where the stream's memory comes from; outlives the stream.
    private let memory: UnsafeMutablePointer<c_zstd_memory>
    private let stream: UnsafeMutableRawPointer
    /// For ``decode(_:)`` only, made on its first call and reused from chunk to chunk; it grows only when a chunk
    /// decodes to more than any before it. Bounded reads write into the arrays they return and never make it.
    private var buffer = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    /// Whether the input so far ends at the end of a frame (true before any input).
    private var atFrameEnd = true
    private var consumed: Int64 = 0
    private var decoded: Int64 = 0

    init(library: ZstdLibrary, limits: DecompressionLimits, maxWindowLog: Int) throws {
        functions = library.functions
        self.limits = limits
        let memory = UnsafeMutablePointer<c_zstd_memory>.allocate(capacity: 1)
        memory.initialize(to: c_zstd_memory())
        self.memory = memory
        guard let stream = withUnsafePointer(to: library.functions, { c_zstd_create_stream($0, memory) }) else {
            memory.deallocate()
            throw ClientError(.compressionFailed, message: "libzstd could not start a decoder")
        }
        self.stream = stream
        let status = functions.setParameter!(stream, Int32(C_ZSTD_D_WINDOW_LOG_MAX), Int32(maxWindowLog))
        if functions.isError!(status) != 0 {
            throw error("libzstd refused the window limit", status)
        }
    }

    deinit {
        _ = functions.freeDStream!(stream)
        memory.deallocate()
        buffer.deallocate()
    }

    func prepare(forEncodedLength length: Int64) {
        if length >= Self.largeBodyLength { memory.pointee.large_body = 1 }
    }

    /// How many of the decoder's allocations are mapped for huge pages now, for tests.
    var mappedAllocations: Int {
        withUnsafeBytes(of: memory.pointee.mappings) { raw in
            raw.bindMemory(to: c_zstd_mapping.self).filter { $0.start != nil }.count
        }
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
                try step(&input, &output)
                filled += output.pos
                if input.pos == input.size && output.pos < output.size { return }
            }
        }
        guard filled > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: filled) { output, count in
            _ = output.initialize(from: UnsafeBufferPointer(rebasing: buffer[..<filled]))
            count = filled
        }
    }

    func decode(_ input: UnsafeRawBufferPointer, atMost limit: Int) throws -> (output: [UInt8], used: Int) {
        precondition(limit > 0)
        return try withUnsafeBytes(of: UInt8(0)) { nothing in
            // zstd takes no null source, even an empty one.
            var source = c_zstd_in_buffer(src: input.baseAddress ?? nothing.baseAddress, size: input.count, pos: 0)
            let output = try [UInt8](unsafeUninitializedCapacity: limit) { buffer, count in
                var output = c_zstd_out_buffer(dst: UnsafeMutableRawPointer(buffer.baseAddress!), size: limit, pos: 0)
                defer { count = output.pos }
                // One call does what it can; another only after it stopped at a frame's end with input left.
                while true {
                    let (used, written) = (source.pos, output.pos)
                    try step(&source, &output)
                    if output.pos == output.size || source.pos == source.size { break }
                    if source.pos == used && output.pos == written { break }
                }
            }
            return (output, source.pos)
        }
    }

    /// One `ZSTD_decompressStream` call: counts what it used and wrote, checks the limits, and notes whether the
    /// input so far ends at the end of a frame.
    private func step(_ input: inout c_zstd_in_buffer, _ output: inout c_zstd_out_buffer) throws {
        let (used, written) = (input.pos, output.pos)
        let status = functions.decompressStream!(stream, &output, &input)
        consumed += Int64(input.pos - used)
        decoded += Int64(output.pos - written)
        if functions.isError!(status) != 0 { throw error("The zstd body is corrupt", status) }
        try checkLimits()
        // 0: a frame is complete and flushed. A call that moved nothing (the output was exactly full) says nothing
        // new about where the input ends.
        if status == 0 {
            atFrameEnd = true
        } else if input.pos > used || output.pos > written {
            atFrameEnd = false
        }
    }

    func finish() throws -> [UInt8] {
        guard atFrameEnd else {
            throw ClientError(.compressionFailed, message: "The compressed body ended inside a zstd frame")
        }
        return []
    }

    /// Makes the output buffer, or doubles it keeping its bytes.
    private func grow() {
        let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(Self.bufferSize, buffer.count * 2))
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
