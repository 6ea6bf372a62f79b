import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ZlibContentCodec {
    /// Compresses bytes in one call (ASIHTTPRequest's `+[ASIDataCompressor compressData:error:]`).
    /// - Parameters:
    ///   - bytes: The plain bytes.
    ///   - encoding: `gzip` (default) or `deflate`.
    /// - Returns: The compressed bytes.
    /// - Throws: ``ClientError`` with ``ClientError/Code/compressionFailed``.
    public func compress(_ bytes: [UInt8], encoding: String = "gzip") throws -> [UInt8] {
        let encoder = try makeEncoder(for: encoding)
        return try encoder.encode(bytes) + encoder.finish()
    }

    /// Decompresses bytes in one call (`+[ASIDataDecompressor uncompressData:error:]`), within the configured
    /// limits.
    /// - Parameters:
    ///   - bytes: The compressed bytes.
    ///   - encoding: `gzip` (default) or `deflate`.
    /// - Returns: The plain bytes.
    /// - Throws: ``ClientError`` with ``ClientError/Code/compressionFailed`` for corrupt or truncated input.
    public func decompress(_ bytes: [UInt8], encoding: String = "gzip") throws -> [UInt8] {
        let decoder = try makeDecoder(for: encoding)
        return try decoder.decode(bytes) + decoder.finish()
    }

    /// Compresses a file into another, streaming (`+[ASIDataCompressor compressDataFromFile:toFile:error:]`).
    /// - Parameters:
    ///   - sourcePath: The plain file.
    ///   - destinationPath: The compressed file to write (replaced if it exists).
    ///   - encoding: `gzip` (default) or `deflate`.
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed`` when a file cannot be read or written, or
    ///   ``ClientError/Code/compressionFailed``.
    public func compressFile(
        atPath sourcePath: String, toPath destinationPath: String, encoding: String = "gzip"
    )
        throws
    {
        let encoder = try makeEncoder(for: encoding)
        try Self.transform(sourcePath, to: destinationPath, step: encoder.encode, finish: encoder.finish)
    }

    /// Decompresses a file into another, streaming
    /// (`+[ASIDataDecompressor uncompressDataFromFile:toFile:error:]`); the destination is removed on failure.
    /// - Parameters:
    ///   - sourcePath: The compressed file.
    ///   - destinationPath: The plain file to write (replaced if it exists).
    ///   - encoding: `gzip` (default) or `deflate`.
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed`` when a file cannot be read or written, or
    ///   ``ClientError/Code/compressionFailed`` for corrupt or truncated input.
    public func decompressFile(
        atPath sourcePath: String, toPath destinationPath: String, encoding: String = "gzip"
    )
        throws
    {
        let decoder = try makeDecoder(for: encoding)
        try Self.transform(sourcePath, to: destinationPath, step: decoder.decode, finish: decoder.finish)
    }

    private static func transform(
        _ sourcePath: String,
        to destinationPath: String,
        step: ([UInt8]) throws -> [UInt8],
        finish: () throws -> [UInt8]
    ) throws {
        let input = open(sourcePath, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw storageError("Cannot open \(sourcePath)", "open") }
        defer { _ = close(input) }
        let output = open(destinationPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw storageError("Cannot create \(destinationPath)", "open") }
        var closed = false
        defer { if !closed { _ = close(output) } }
        do {
            var buffer = [UInt8](repeating: 0, count: RequestBody.fileChunkSize)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw storageError("Cannot read \(sourcePath)", "read") }
                if count == 0 { break }
                try write(try step(Array(buffer[..<count])), to: output, path: destinationPath)
            }
            try write(try finish(), to: output, path: destinationPath)
            closed = true
            guard close(output) == 0 || errno == EINTR else {
                throw storageError("Cannot write \(destinationPath)", "close")
            }
        } catch {
            _ = unlink(destinationPath)
            throw error
        }
    }

    private static func write(_ bytes: [UInt8], to fd: Int32, path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = writeBytes(fd, buffer.baseAddress! + written, buffer.count - written)
                if count >= 0 {
                    written += count
                } else if errno != EINTR {
                    throw storageError("Cannot write \(path)", "write")
                }
            }
        }
    }

    private static func writeBytes(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, pointer, count)
        #else
        Darwin.write(fd, pointer, count)
        #endif
    }

    private static func storageError(_ message: String, _ operation: String) -> ClientError {
        ClientError(.storageFailed, stage: .codec, message: message, underlying: SyscallError.last(operation))
    }
}
