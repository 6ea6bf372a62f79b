import CBrotli
import HTTPCore

/// Decodes one `br` body, streaming, and enforces the codec's size and ratio limits as it goes.
final class BrotliDecoder: BoundedContentDecoder {
    /// The size of the output buffer of ``decode(_:)``, doubled when one chunk decodes to more.
    static let bufferSize = 256 * 1024

    /// The smallest encoded body whose ring buffer is mapped for huge pages (``prepare(forEncodedLength:)``): text
    /// compresses 10 to 12 times, so such a body fills a ring buffer of 2 MiB, the size a huge page needs.
    static let largeBodyLength: Int64 = 256 * 1024

    private let functions: c_brotli_functions
    private let limits: DecompressionLimits
    /// Where the decoder's memory comes from; outlives the decoder.
    private let memory: UnsafeMutablePointer<c_brotli_memory>
    private let state: UnsafeMutableRawPointer
    /// For ``decode(_:)`` only, made on its first call and reused from chunk to chunk; it grows only when a chunk
    /// decodes to more than any before it. Bounded reads write into the arrays they return and never make it.
    private var buffer = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    /// Whether the brotli stream reached its end.
    private var ended = false
    /// Whether any input arrived; an empty body decodes to nothing.
    private var sawInput = false
    private var consumed: Int64 = 0
    private var decoded: Int64 = 0

    init(library: BrotliLibrary, limits: DecompressionLimits) throws {
        functions = library.functions
        self.limits = limits
        let memory = UnsafeMutablePointer<c_brotli_memory>.allocate(capacity: 1)
        memory.initialize(to: c_brotli_memory())
        self.memory = memory
        guard let state = withUnsafePointer(to: library.functions, { c_brotli_create_instance($0, memory) }) else {
            memory.deallocate()
            throw ClientError(.compressionFailed, message: "libbrotlidec could not start a decoder")
        }
        self.state = state
    }

    deinit {
        functions.destroyInstance!(state)
        memory.deallocate()
        buffer.deallocate()
    }

    func prepare(forEncodedLength length: Int64) {
        if length >= Self.largeBodyLength { memory.pointee.large_body = 1 }
    }

    /// How many of the decoder's allocations are mapped for huge pages now, for tests.
    var mappedAllocations: Int {
        withUnsafeBytes(of: memory.pointee.mappings) { raw in
            raw.bindMemory(to: c_brotli_mapping.self).filter { $0.start != nil }.count
        }
    }

    func decode(_ chunk: [UInt8]) throws -> [UInt8] {
        guard !chunk.isEmpty else { return [] }
        sawInput = true
        guard !ended else { throw ClientError(.compressionFailed, message: "Data follows the end of the br stream") }
        var filled = 0
        try chunk.withUnsafeBufferPointer { input in
            var nextIn = input.baseAddress
            var availableIn = input.count
            while true {
                if filled == buffer.count { grow() }
                let room = buffer.count - filled
                var nextOut = buffer.baseAddress.map { $0 + filled }
                var availableOut = room
                let needsMoreOutput = try step(&nextIn, &availableIn, &nextOut, &availableOut)
                filled += room - availableOut
                if !needsMoreOutput { return }
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
        guard !ended else {
            guard input.isEmpty else {
                throw ClientError(.compressionFailed, message: "Data follows the end of the br stream")
            }
            return ([], 0)
        }
        sawInput = sawInput || !input.isEmpty
        return try withUnsafeBytes(of: UInt8(0)) { nothing in
            // No null input pointer, even for an empty input.
            var nextIn = (input.baseAddress ?? nothing.baseAddress!).assumingMemoryBound(to: UInt8.self)
                as UnsafePointer<UInt8>?
            var availableIn = input.count
            let output = try [UInt8](unsafeUninitializedCapacity: limit) { buffer, count in
                var nextOut = buffer.baseAddress
                var availableOut = limit
                defer { count = limit - availableOut }
                _ = try step(&nextIn, &availableIn, &nextOut, &availableOut)
            }
            return (output, input.count - availableIn)
        }
    }

    /// One `BrotliDecoderDecompressStream` call: counts what it used and wrote and checks the limits.
    /// - Returns: Whether it stopped because the output was full.
    private func step(
        _ nextIn: inout UnsafePointer<UInt8>?, _ availableIn: inout Int,
        _ nextOut: inout UnsafeMutablePointer<UInt8>?, _ availableOut: inout Int
    ) throws -> Bool {
        let (inBefore, outBefore) = (availableIn, availableOut)
        let result = functions.decompressStream!(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
        consumed += Int64(inBefore - availableIn)
        decoded += Int64(outBefore - availableOut)
        try checkLimits()
        switch Int(result) {
        case Int(C_BROTLI_DECODER_RESULT_SUCCESS):
            ended = true
            guard availableIn == 0 else {
                throw ClientError(.compressionFailed, message: "Data follows the end of the br stream")
            }
            return false
        case Int(C_BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT):
            return false
        case Int(C_BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT):
            return true
        default:
            let code = functions.errorCode!(state)
            let name = functions.errorString!(code).map { String(cString: $0) } ?? "unknown"
            throw ClientError(.compressionFailed, message: "The br body is corrupt: \(name) (brotli error \(code))")
        }
    }

    func finish() throws -> [UInt8] {
        guard sawInput, !ended else { return [] }
        throw ClientError(.compressionFailed, message: "The compressed body ended before its br stream did")
    }

    /// Makes the output buffer, or doubles it keeping its bytes.
    private func grow() {
        let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(Self.bufferSize, buffer.count * 2))
        _ = grown.initialize(from: buffer)
        buffer.deallocate()
        buffer = grown
    }

    private func checkLimits() throws {
        try limits.check(decoded: decoded, consumed: consumed)
    }
}
