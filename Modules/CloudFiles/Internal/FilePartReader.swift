import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one byte range of a file in chunks with `pread`: a large object's segment streamed from disk, so a
/// segment never sits in memory whole. Opened on the first read, closed at the end or when dropped. (The S3
/// plug-in has the same reader; a plug-in shares no code with a module above the pipeline.)
final class FilePartReader: Sendable {
    private struct State: ~Copyable {
        var fd: Int32 = -1
        var position: Int64 = 0
    }

    private let path: String
    private let offset: Int64
    private let length: Int64
    // The open descriptor and the read position, guarded by the mutex; one consumer reads at a time.
    private let state = Mutex(State())

    init(path: String, offset: Int64, length: Int64) {
        self.path = path
        self.offset = offset
        self.length = length
    }

    deinit {
        state.withLock { if $0.fd >= 0 { _ = close($0.fd) } }
    }

    /// The next chunk of at most ``RequestBody/fileChunkSize`` bytes, or `nil` after the range's end.
    func read() throws -> [UInt8]? {
        try state.withLock { state in
            guard state.position < length else {
                if state.fd >= 0 { _ = close(state.fd) }
                state.fd = -1
                return nil
            }
            if state.fd < 0 {
                state.fd = open(path, O_RDONLY | O_CLOEXEC)
                guard state.fd >= 0 else {
                    throw ClientError(
                        .storageFailed, message: "Cannot open \(path)", underlying: SyscallError.last("open"))
                }
            }
            let count = Int(min(Int64(RequestBody.fileChunkSize), length - state.position))
            var chunk = [UInt8](repeating: 0, count: count)
            let got = chunk.withUnsafeMutableBytes {
                pread(state.fd, $0.baseAddress, count, off_t(offset + state.position))
            }
            guard got > 0 else {
                throw ClientError(
                    .storageFailed, message: "\(path) ended before its part did",
                    underlying: got < 0 ? SyscallError.last("pread") : nil)
            }
            if got < count { chunk.removeLast(count - got) }
            state.position += Int64(got)
            return chunk
        }
    }

    /// The MD5 of the range, read in chunks: what Swift's ETag of a segment holding it is.
    static func md5(path: String, offset: Int64, length: Int64) throws -> String {
        let reader = FilePartReader(path: path, offset: offset, length: length)
        let md5 = StreamingMD5()
        while let chunk = try reader.read() { md5.update(chunk) }
        return md5.finish()
    }

    /// A replayable body over the range: each send opens a fresh reader.
    static func body(path: String, offset: Int64, length: Int64) -> RequestBody {
        .stream(length: length, isReplayable: true) {
            let reader = FilePartReader(path: path, offset: offset, length: length)
            return RequestBody.Chunks { try reader.read() }
        }
    }
}
