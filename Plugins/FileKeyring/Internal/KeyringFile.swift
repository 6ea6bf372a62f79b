import Glibc

/// The keyring's file-system work: reading the file, replacing it atomically, and the sidecar lock.
///
/// A write creates `.<name>.tmp.<pid>.<random>` in the same directory with `O_CREAT | O_EXCL` and mode 0600
/// (then `fchmod` 0600, so no umask widens or narrows it), writes and `fsync`s it, renames it over the keyring and
/// `fsync`s the directory. A crash at any point leaves either the old file or the new one, never a mix; a
/// temporary file left by a killed writer is removed by the next writer (only the lock holder writes one).
struct KeyringFile {
    let path: String
    /// Called at fixed points of a write, for tests that kill a writer there. `nil` in production.
    let writeHook: (@Sendable (FileCredentialStore.WriteStage) -> Void)?

    var lockPath: String { path + ".lock" }
    private var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
    private var name: String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    func failure(_ operation: String, _ code: Int32 = Glibc.errno) -> KeyringError {
        KeyringError(
            .fileSystem, path: path, message: "\(operation) failed: \(String(cString: strerror(code)))", errno: code)
    }

    /// The largest file read, keyring or `.netrc`: 64 MiB (the size `fstat` reports; a device such as `/dev/zero`
    /// reports 0 and is read as empty). A larger file is refused as damaged before any byte is read.
    static let maxBytes = 64 << 20

    /// The file's bytes, or `nil` when it does not exist. A keyring is never read through a symbolic link.
    func read(followingLinks: Bool = false) throws(KeyringError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw failure("open")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("fstat") }
        guard info.st_size <= Self.maxBytes else {
            throw KeyringError(.damaged, path: path, message: "the file is larger than 64 MiB")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw failure("read") }
            if count == 0 { break }
            done += count
        }
        return Array(bytes[0..<done])
    }

    /// Replaces the file with `bytes`, atomically and durably, mode 0600.
    func replace(with bytes: [UInt8]) throws(KeyringError) {
        removeStaleTemporaries()
        let suffix = (KeyringCrypto.random(6) ?? [0]).map { String($0, radix: 16) }.joined()
        let temporary = "\(directory)/.\(name).tmp.\(getpid()).\(suffix)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw failure("create temporary file") }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(fd) }
            guard fchmod(fd, 0o600) == 0 else { throw failure("fchmod") }
            let half = bytes.count / 2
            try write(fd, bytes[0..<half])
            writeHook?(.halfWritten)
            try write(fd, bytes[half...])
            guard fsync(fd) == 0 else { throw failure("fsync") }
        }
        writeHook?(.beforeRename)
        guard rename(temporary, path) == 0 else { throw failure("rename") }
        renamed = true
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
        writeHook?(.renamed)
    }

    private func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws(KeyringError) {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw failure("write") }
            offset += count
        }
    }

    /// Removes temporary files a killed writer left; called by the lock holder only, so none is in use.
    private func removeStaleTemporaries() {
        guard let handle = opendir(directory) else { return }
        defer { closedir(handle) }
        let prefix = ".\(name).tmp."
        while let entry = readdir(handle) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if entryName.hasPrefix(prefix) { unlink("\(directory)/\(entryName)") }
        }
    }

    /// Runs `body` holding an exclusive `flock` on `<path>.lock` (created 0600). Waiting for another holder
    /// sleeps in short steps instead of blocking the thread.
    func withLock<R>(_ body: () throws -> R) async throws -> R {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw failure("open lock file") }
        defer { close(fd) }  // closing releases the lock
        _ = fchmod(fd, 0o600)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw failure("flock") }
            try await Task.sleep(for: .milliseconds(2))
        }
        return try body()
    }
}
