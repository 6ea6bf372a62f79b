import FoundationEssentials
import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The body of a disk entry: the file named after the entry's body version, which is never rewritten (a new
/// commit writes a new version), so it always holds the bytes committed with the head it came with.
struct DiskCachedBody: CachedBody {
    let path: String
    let length: Int64

    /// Opens the file; `nil` when the entry was removed or replaced since the lookup (its version is gone) or
    /// the file is not as long as it was when committed.
    func open() async throws -> ResponseBody? {
        let fd = POSIXFile.openForReading(path)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw POSIXFile.failure("open", "open a cached body")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, Int64(info.st_size) == length else {
            close(fd)
            return nil
        }
        return ResponseBody(expectedLength: length, source: FileBodySource(fd: fd, length: length))
    }

    var fileURL: URL? { URL(filePath: path) }
}

/// Streams an open file in 64 KiB `pread`s and closes it at the end, on `discard()` or when dropped.
final class FileBodySource: ResponseBodySource {
    static let chunkSize = 64 << 10
    private let length: Int64
    private let state: Mutex<(fd: Int32, offset: Int64)>

    init(fd: Int32, length: Int64) {
        self.length = length
        self.state = Mutex((fd, 0))
    }

    deinit {
        state.withLock { if $0.fd >= 0 { close($0.fd) } }
    }

    func next() async throws -> [UInt8]? {
        if Task.isCancelled {
            await discard()
            throw ClientError(.cancelled, message: "Reading a cached body was cancelled")
        }
        return try state.withLock { state -> [UInt8]? in
            guard state.fd >= 0 else { return nil }
            guard state.offset < length else {
                close(state.fd)
                state.fd = -1
                return nil
            }
            let want = Int(min(Int64(Self.chunkSize), length - state.offset))
            let fd = state.fd
            let offset = state.offset
            let chunk = try Self.chunk(fd, count: want, at: offset)
            state.offset += Int64(chunk.count)
            return chunk
        }
    }

    private static func chunk(_ fd: Int32, count: Int, at offset: Int64) throws(ClientError) -> [UInt8] {
        do {
            return try PositionalRead.chunk(fd, count: count, at: offset)
        } catch {
            switch error {
            case .endOfFile:
                throw ClientError(.storageFailed, message: "Disk cache: a cached body became shorter")
            case .failed(let error):
                throw ClientError(.storageFailed, message: "Disk cache: cannot read a cached body", underlying: error)
            }
        }
    }

    func discard() async {
        state.withLock { state in
            if state.fd >= 0 { close(state.fd) }
            state.fd = -1
        }
    }
}
