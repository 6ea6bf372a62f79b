#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one `pread` loop: fills a buffer from a file descriptor at an offset, again after `EINTR` and after a short
/// read, until the buffer is full. `package`: the file bodies of the core, the pipeline, the transport and the disk
/// cache read files with it, each naming its own errors.
package enum PositionalRead {
    /// Why a read stopped before the buffer was full.
    package enum Failure: Error, Sendable {
        /// The file ended first: it became shorter than its caller expected.
        case endOfFile
        /// `pread` failed (the error is taken at once, with its `errno`).
        case failed(SyscallError)
    }

    /// Fills `count` bytes at `base` from `fd`, starting at `offset`.
    /// - Parameters:
    ///   - fd: An open file descriptor.
    ///   - base: Where the bytes go; room for at least `count`.
    ///   - count: How many bytes to read.
    ///   - offset: The file offset of the first byte.
    /// - Throws: ``Failure``.
    package static func fill(
        _ fd: Int32, _ base: UnsafeMutableRawPointer, count: Int, at offset: Int64
    ) throws(Failure) {
        var filled = 0
        while filled < count {
            let n = pread(fd, base + filled, count - filled, off_t(offset + Int64(filled)))
            if n > 0 {
                filled += n
            } else if n == 0 {
                throw .endOfFile
            } else if errno != EINTR {
                throw .failed(SyscallError.last("pread"))
            }
        }
    }

    /// `count` bytes of `fd` from `offset`, in a new array.
    /// - Parameters:
    ///   - fd: An open file descriptor.
    ///   - count: How many bytes to read.
    ///   - offset: The file offset of the first byte.
    /// - Returns: Exactly `count` bytes.
    /// - Throws: ``Failure``.
    package static func chunk(_ fd: Int32, count: Int, at offset: Int64) throws(Failure) -> [UInt8] {
        var failure: Failure?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            guard count > 0 else { return }
            do throws(Failure) {
                try fill(fd, buffer.baseAddress!, count: count, at: offset)
                initialized = count
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Like ``chunk(_:count:at:)``, with the messages every streamed file body uses: "`path` became shorter while
    /// it was being sent" and "Cannot read `path`" (with the `pread` error underneath).
    /// - Parameters:
    ///   - fd: An open file descriptor for `path`.
    ///   - count: How many bytes to read.
    ///   - offset: The file offset of the first byte.
    ///   - path: The file's path, for the messages.
    ///   - stage: The stage the error names, or `nil` for the pipeline to fill in.
    /// - Returns: Exactly `count` bytes.
    /// - Throws: `ClientError` with `storageFailed`.
    package static func chunk(
        _ fd: Int32, count: Int, at offset: Int64, path: String, stage: ClientError.Stage?
    ) throws(ClientError) -> [UInt8] {
        do {
            return try chunk(fd, count: count, at: offset)
        } catch {
            throw error.clientError(path: path, stage: stage)
        }
    }

    /// Like ``fill(_:_:count:at:)``, with the messages of ``chunk(_:count:at:path:stage:)``.
    /// - Parameters:
    ///   - fd: An open file descriptor for `path`.
    ///   - base: Where the bytes go; room for at least `count`.
    ///   - count: How many bytes to read.
    ///   - offset: The file offset of the first byte.
    ///   - path: The file's path, for the messages.
    ///   - stage: The stage the error names, or `nil` for the pipeline to fill in.
    /// - Throws: `ClientError` with `storageFailed`.
    package static func fill(
        _ fd: Int32, _ base: UnsafeMutableRawPointer, count: Int, at offset: Int64, path: String,
        stage: ClientError.Stage?
    ) throws(ClientError) {
        do {
            try fill(fd, base, count: count, at: offset)
        } catch {
            throw error.clientError(path: path, stage: stage)
        }
    }
}

extension PositionalRead.Failure {
    fileprivate func clientError(path: String, stage: ClientError.Stage?) -> ClientError {
        switch self {
        case .endOfFile:
            ClientError(.storageFailed, stage: stage, message: "\(path) became shorter while it was being sent")
        case .failed(let underlying):
            ClientError(.storageFailed, stage: stage, message: "Cannot read \(path)", underlying: underlying)
        }
    }
}
