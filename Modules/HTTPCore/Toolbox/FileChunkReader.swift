#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Reads a file, or one byte range of it, in fixed-size pieces with `pread`, opening it on the first read and
/// closing it at the end. `package`: the S3 and CloudFiles uploads stream their parts and segments with it.
///
/// Each read is one bounded local-disk `pread`, so the cooperative pool is held only briefly.
package final class FileChunkReader: Sendable {
    private let path: String
    private let start: Int64
    private let length: Int64
    private let chunkSize: Int
    // The descriptor and offset, guarded by the mutex; a consumer reads one chunk at a time.
    private let state = Mutex<(fd: Int32, offset: Int64)>((-1, 0))

    /// A reader of `length` bytes from `start`.
    package init(path: String, start: Int64 = 0, length: Int64, chunkSize: Int) {
        self.path = path
        self.start = start
        self.length = length
        self.chunkSize = chunkSize
    }

    deinit {
        state.withLock { if $0.fd >= 0 { _ = close($0.fd) } }
    }

    /// The next piece of at most `chunkSize` bytes, or `nil` after the end.
    package func read() throws -> [UInt8]? {
        try state.withLock { state -> [UInt8]? in
            if state.offset >= length {
                if state.fd >= 0 { _ = close(state.fd); state.fd = -1 }
                return nil
            }
            if state.fd < 0 {
                state.fd = open(path, O_RDONLY | O_CLOEXEC)
                guard state.fd >= 0 else {
                    throw ClientError(.storageFailed, message: "Cannot open \(path)", underlying: SyscallError.last("open"))
                }
            }
            let want = Int(min(Int64(chunkSize), length - state.offset))
            let fd = state.fd, offset = start + state.offset
            let chunk = try PositionalRead.chunk(fd, count: want, at: offset, path: path, stage: nil)
            state.offset += Int64(chunk.count)
            return chunk
        }
    }
}
