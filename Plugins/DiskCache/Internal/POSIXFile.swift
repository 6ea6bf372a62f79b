import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few system calls the store makes, each turning a failure into a ``ClientError`` (`storageFailed`) that
/// names the operation but not the key (the file names are hashes; the key may carry a query with secrets).
enum POSIXFile {
    /// A file's identity and timestamps: a head file that another process replaced has another identity.
    struct Status: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64  // nanoseconds since 1970
        var accessed: Double  // seconds since 1970

        var identity: Identity { Identity(device: device, inode: inode, size: size, modified: modified) }
    }

    /// What tells two versions of a file apart.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    static func failure(_ operation: String, _ what: String) -> ClientError {
        ClientError(.storageFailed, message: "Disk cache: cannot \(what)", underlying: SyscallError.last(operation))
    }

    /// `stat`, or `nil` when the file does not exist.
    static func status(_ path: String) throws -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw failure("stat", "inspect a cache file")
        }
        return Status(info)
    }

    /// Reads a whole small file with the status of exactly the file read; `nil` when it does not exist, and
    /// `bytes` `nil` when it is longer than `limit`.
    static func contents(of path: String, limit: Int) throws -> (status: Status, bytes: [UInt8]?)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("open", "open a cache file")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("fstat", "inspect a cache file") }
        let status = Status(info)
        guard status.size <= limit else { return (status, nil) }
        var bytes = [UInt8](repeating: 0, count: Int(status.size))
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw failure("read", "read a cache file") }
            if n == 0 { break }  // shorter than its size said: the checksum will reject it
            count += n
        }
        return (status, Array(bytes[0..<count]))
    }

    /// Writes every byte, retrying short writes.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    /// Opens a file for reading; -1 with `errno` set on failure.
    static func openForReading(_ path: String) -> Int32 {
        open(path, O_RDONLY | O_CLOEXEC)
    }

    /// Creates a new file, mode 0600, failing when the name is taken.
    static func create(_ path: String) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("open", "create a cache file") }
        return fd
    }

    /// Writes `bytes` to a new file at `path` (flushed to the disk when `sync`).
    static func writeNew(_ path: String, _ bytes: [UInt8], sync: Bool) throws {
        let fd = try create(path)
        defer { close(fd) }
        if let error = writeAll(fd, bytes) {
            errno = error
            unlink(path)
            throw failure("write", "write a cache file")
        }
        if sync && fsync(fd) != 0 {
            unlink(path)
            throw failure("fsync", "flush a cache file")
        }
    }

    static func move(_ from: String, to: String) throws {
        guard rename(from, to) == 0 else { throw failure("rename", "move a cache file into place") }
    }

    /// Removes a file; a missing one is fine.
    static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// Creates a directory (mode 0700) and its missing parents.
    static func makeDirectory(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw failure("mkdir", "create the cache directory")
            }
        }
    }

    /// The names in a directory, without `.` and `..`.
    static func names(in directory: String) throws -> [String] {
        guard let dir = opendir(directory) else {
            if errno == ENOENT { return [] }
            throw failure("opendir", "list the cache directory")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Marks a file as just used (its access time), leaving its modification time alone.
    static func touch(_ path: String) {
        // UTIME_NOW and UTIME_OMIT from <sys/stat.h>, which Swift does not import (they are expressions).
        var times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 1), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    /// Whether a process with this id exists (a writer whose temporary file may still grow).
    static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Runs `body` holding an exclusive `flock` on `path` (created when missing). Each call opens its own
    /// descriptor, so the lock excludes other tasks of this process as well as other processes.
    static func withLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("open", "open the cache lock file") }
        defer { close(fd) }  // closing releases the lock
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("flock", "lock the cache directory") }
        }
        return try body()
    }
}

extension POSIXFile.Status {
    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        accessed = Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1e9
    }
}
