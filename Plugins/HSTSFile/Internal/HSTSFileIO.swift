#if canImport(Glibc)
import Glibc
#endif
import HTTPCore

/// The file operations of an ``HSTSFileStore``: reading the file, a lock that every writer of the file takes, and
/// an atomic replacement (temporary file in the same folder, `fsync`, `rename`, `fsync` of the folder). The same
/// code as the CookieFile plug-in's `CookieFileIO` (a plug-in cannot import another), with the names changed.
///
/// The lock is an exclusive `flock` on the folder that holds the file, not on the file: the file is replaced by
/// `rename` on every write, and a lock on the old inode would not stop a second writer who opened the new one.
struct HSTSFileIO: Sendable {
    /// The HSTS file's path.
    let path: String
    /// Called after the temporary file is written and synced, before the rename (tests stop the process here).
    let beforeRename: (@Sendable () -> Void)?

    /// The folder holding the file.
    var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The largest HSTS file read: 10,000 hosts (``HSTSStorage``'s limit) of curl's longest line, with room to
    /// spare. A larger file (or a device such as `/dev/zero`) is refused rather than read into memory without end.
    static let maxFileBytes = 8 * 1024 * 1024

    /// The file's bytes, or `nil` when it does not exist.
    /// - Throws: ``ClientError`` with `storageFailed` when it exists and cannot be read, or holds more than
    ///   ``maxFileBytes``.
    func read() throws(ClientError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw failure("open", "Cannot read the HSTS file")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", "Cannot read the HSTS file")
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= Self.maxFileBytes else {
                throw ClientError(.storageFailed, stage: .hsts,
                                  message: "The HSTS file is larger than \(Self.maxFileBytes / 1_048_576) MiB: \(path)")
            }
            bytes += buffer[..<count]
        }
    }

    /// Runs `body` holding the exclusive lock every ``HSTSFileStore`` of this folder takes to write.
    /// - Throws: ``ClientError`` with `storageFailed` when the folder cannot be locked, or what `body` throws.
    func withLock<T>(_ body: () throws(ClientError) -> T) throws(ClientError) -> T {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", "Cannot open the HSTS file's folder") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("flock", "Cannot lock the HSTS file's folder") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Replaces the file with `bytes` atomically: readers see the old file or the new one, never a part.
    /// The new file is readable by its owner only (0600): where a user has been is private.
    /// - Throws: ``ClientError`` with `storageFailed`.
    func replace(with bytes: [UInt8]) throws(ClientError) {
        var template = Array((directory + "/.hsts-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure("mkstemp", "Cannot create a temporary HSTS file") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw failure("fchmod", "Cannot protect the HSTS file") }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("write", "Cannot write the HSTS file")
                }
                offset += written
            }
            guard fsync(descriptor) == 0 else { throw failure("fsync", "Cannot write the HSTS file") }
        }
        beforeRename?()
        guard rename(temporary, path) == 0 else { throw failure("rename", "Cannot replace the HSTS file") }
        renamed = true
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)  // the rename itself survives a power cut; best effort
            close(folder)
        }
    }

    private func failure(_ operation: String, _ message: String) -> ClientError {
        ClientError(.storageFailed, stage: .hsts, message: "\(message) \(path)",
                    underlying: SyscallError.last(operation))
    }
}
