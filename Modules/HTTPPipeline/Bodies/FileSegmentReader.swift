import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands out a composed body's segments in order: memory pieces whole, files in pieces of
/// ``HTTPCore/RequestBody/fileChunkSize`` read with `pread`, each file opened when reached and closed at its end.
final class FileSegmentReader: Sendable {
    private struct State: ~Copyable {
        var index = 0
        var fd: Int32 = -1
        var offset: Int64 = 0

        mutating func closeFile() {
            if fd >= 0 { _ = close(fd) }
            fd = -1
            offset = 0
        }
    }

    private let segments: [BodySegment]
    // The position in the segments and the open file, guarded by the mutex; one consumer reads at a time.
    private let state = Mutex(State())

    init(_ segments: [BodySegment]) {
        self.segments = segments
    }

    deinit {
        state.withLock { $0.closeFile() }
    }

    /// The size of the regular file at `path`.
    static func size(ofFileAt path: String) throws -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw ClientError(.storageFailed, stage: .pipeline, message: "No file exists at \(path)")
        }
        return Int64(info.st_size)
    }

    func next() throws -> [UInt8]? {
        try state.withLock { state -> [UInt8]? in
            while state.index < segments.count {
                switch segments[state.index] {
                case .bytes(let bytes):
                    state.index += 1
                    return bytes
                case .file(let path, let length):
                    if state.offset >= length {
                        state.closeFile()
                        state.index += 1
                        continue
                    }
                    return try Self.read(path: path, length: length, state: &state)
                }
            }
            return nil
        }
    }

    private static func read(path: String, length: Int64, state: inout State) throws -> [UInt8] {
        if state.fd < 0 {
            guard try size(ofFileAt: path) == length else {
                throw ClientError(
                    .storageFailed, stage: .pipeline,
                    message: "\(path) changed size after it was added to the body")
            }
            state.fd = open(path, O_RDONLY | O_CLOEXEC)
            guard state.fd >= 0 else {
                throw ClientError(
                    .storageFailed, stage: .pipeline, message: "Cannot open \(path)",
                    underlying: SyscallError.last("open"))
            }
        }
        let want = Int(min(Int64(RequestBody.fileChunkSize), length - state.offset))
        let fd = state.fd
        let offset = state.offset
        let chunk = try PositionalRead.chunk(fd, count: want, at: offset, path: path, stage: .pipeline)
        state.offset += Int64(chunk.count)
        return chunk
    }
}
