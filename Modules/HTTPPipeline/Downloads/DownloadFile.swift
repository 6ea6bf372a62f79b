import FoundationEssentials
import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file a download writes to, with the small set of file operations downloads need. Every failure
/// throws ``ClientError`` with ``ClientError/Code/storageFailed``. Confined to the task that downloads.
final class DownloadFile {
    let path: String
    private var fd: Int32
    /// Bytes in the file.
    private(set) var size: Int64

    /// Opens `path` for writing, creating it; `append` keeps what is there, otherwise the file is emptied.
    init(path: String, append: Bool) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0o644)
        guard fd >= 0 else {
            throw ClientError(
                .storageFailed, stage: .pipeline, message: "Cannot create the download file \(path)",
                underlying: SyscallError.last("open"))
        }
        size = append ? (Self.size(ofFileAt: path) ?? 0) : 0
    }

    deinit {
        if fd >= 0 { _ = close(fd) }
    }

    func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n >= 0 {
                    written += n
                    continue
                }
                if errno == EINTR { continue }
                throw ClientError(
                    .storageFailed, stage: .pipeline, message: "Cannot write the download file \(path)",
                    underlying: SyscallError.last("write"))
            }
        }
        size += Int64(bytes.count)
    }

    func closeFile() throws {
        guard fd >= 0 else { return }
        let result = close(fd)
        fd = -1
        if result != 0 && errno != EINTR {
            throw ClientError(
                .storageFailed, stage: .pipeline, message: "Cannot write the download file \(path)",
                underlying: SyscallError.last("close"))
        }
    }

    /// The size of the file at `path`, or `nil` when there is none.
    static func size(ofFileAt path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Throws unless `path` is free or a regular file: a download replaces its destination with `rename`, which
    /// must never replace a device (`/dev/null`), a directory, a FIFO or a symbolic link.
    static func checkDestination(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ClientError(
                .storageFailed, stage: .pipeline,
                message: "The download destination \(path) exists and is not a regular file")
        }
    }

    /// Removes a file if it exists.
    static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// Moves `source` onto `destination`, replacing it: an atomic `rename` on one file system, a copy then a
    /// rename next to the destination across file systems.
    static func move(_ source: String, to destination: String) throws {
        if rename(source, destination) == 0 { return }
        guard errno == EXDEV else {
            throw ClientError(
                .storageFailed, stage: .pipeline, message: "Cannot move the download to \(destination)",
                underlying: SyscallError.last("rename"))
        }
        let staging = siblingPath(of: destination, suffix: "moving")
        do {
            let input = open(source, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else {
                throw ClientError(
                    .storageFailed, stage: .pipeline, message: "Cannot read \(source)",
                    underlying: SyscallError.last("open"))
            }
            defer { _ = close(input) }
            let output = try DownloadFile(path: staging, append: false)
            var buffer = [UInt8](repeating: 0, count: RequestBody.fileChunkSize)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else {
                    throw ClientError(
                        .storageFailed, stage: .pipeline, message: "Cannot read \(source)",
                        underlying: SyscallError.last("read"))
                }
                if n == 0 { break }
                try output.append(Array(buffer[..<n]))
            }
            try output.closeFile()
            try move(staging, to: destination)
            remove(source)
        } catch {
            remove(staging)
            throw error
        }
    }

    /// A unique hidden path in the same directory as `path`, so a later `rename` onto `path` is atomic.
    static func siblingPath(of path: String, suffix: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(directory).\(name).\(UUID().uuidString.prefix(8)).\(suffix)"
    }
}
