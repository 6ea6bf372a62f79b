#if canImport(Glibc)
import Glibc
#endif

/// The file operations of a store kept in one small file that several processes share (the CookieFile and HSTSFile
/// plug-ins): reading the file, a lock that every writer of the file takes, and an atomic replacement (temporary
/// file in the same folder, `fsync`, `rename`, `fsync` of the folder). `package`, so that plug-ins share it
/// without depending on one another.
///
/// The lock is an exclusive `flock` on the folder that holds the file, not on the file: the file is replaced by
/// `rename` on every write, and a lock on the old inode would not stop a second writer who opened the new one.
package struct SharedFileIO: Sendable {
    /// The file's path.
    package let path: String
    /// What the file is called in error messages, for example `cookie file`.
    package let noun: String
    /// The stage of the errors.
    package let stage: ClientError.Stage
    /// The largest file read; a larger file (or a device such as `/dev/zero`) is refused rather than read into
    /// memory without end.
    package let maxFileBytes: Int
    /// The start of the temporary file's name, for example `.cookies`.
    package let temporaryPrefix: String
    /// Called after the temporary file is written and synced, before the rename (tests stop the process here).
    package let beforeRename: (@Sendable () -> Void)?

    /// File operations for one file.
    package init(
        path: String, noun: String, stage: ClientError.Stage, maxFileBytes: Int, temporaryPrefix: String,
        beforeRename: (@Sendable () -> Void)?
    ) {
        self.path = path
        self.noun = noun
        self.stage = stage
        self.maxFileBytes = maxFileBytes
        self.temporaryPrefix = temporaryPrefix
        self.beforeRename = beforeRename
    }

    /// The folder holding the file.
    package var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The file's bytes, or `nil` when it does not exist.
    /// - Throws: ``ClientError`` with `storageFailed` when it exists and cannot be read, or holds more than
    ///   ``maxFileBytes``.
    package func read() throws(ClientError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw failure("open", "Cannot read the \(noun)")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", "Cannot read the \(noun)")
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maxFileBytes else {
                throw ClientError(.storageFailed, stage: stage,
                                  message: "The \(noun) is larger than \(maxFileBytes / 1_048_576) MiB: \(path)")
            }
            bytes += buffer[..<count]
        }
    }

    /// Runs `body` holding the exclusive lock every writer of a file in this folder takes.
    /// - Throws: ``ClientError`` with `storageFailed` when the folder cannot be locked, or what `body` throws.
    package func withLock<T>(_ body: () throws(ClientError) -> T) throws(ClientError) -> T {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", "Cannot open the \(noun)'s folder") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("flock", "Cannot lock the \(noun)'s folder") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Replaces the file with `bytes` atomically: readers see the old file or the new one, never a part.
    /// The new file is readable by its owner only (0600): cookies are credentials, and where a user has been is
    /// private.
    /// - Throws: ``ClientError`` with `storageFailed`.
    package func replace(with bytes: [UInt8]) throws(ClientError) {
        var template = Array((directory + "/" + temporaryPrefix + "-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure("mkstemp", "Cannot create a temporary \(noun)") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw failure("fchmod", "Cannot protect the \(noun)") }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("write", "Cannot write the \(noun)")
                }
                offset += written
            }
            guard fsync(descriptor) == 0 else { throw failure("fsync", "Cannot write the \(noun)") }
        }
        beforeRename?()
        guard rename(temporary, path) == 0 else { throw failure("rename", "Cannot replace the \(noun)") }
        renamed = true
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)  // the rename itself survives a power cut; best effort
            close(folder)
        }
    }

    private func failure(_ operation: String, _ message: String) -> ClientError {
        ClientError(.storageFailed, stage: stage, message: "\(message) \(path)",
                    underlying: SyscallError.last(operation))
    }
}
