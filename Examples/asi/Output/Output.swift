import HTTPCore
import HTTPPipeline

#if canImport(Glibc)
import Glibc
#endif

/// Byte-exact writes to stdout, stderr and output files.
enum Output {
    /// Writes body bytes to stdout as they are.
    /// - Throws: ``TransferFailure`` 23 when stdout is closed or full.
    static func writeStandardOutput(_ bytes: [UInt8]) throws(TransferFailure) {
        guard writeAll(bytes, to: 1) else { throw TransferFailure(23, "Failure writing output to stdout") }
    }

    /// Writes text to stdout.
    static func writeStandardOutput(_ text: String) throws(TransferFailure) {
        try writeStandardOutput(Array(text.utf8))
    }

    /// Writes text to stderr; a failure is ignored, as there is nowhere left to report it.
    static func writeError(_ text: String) {
        _ = writeAll(Array(text.utf8), to: 2)
    }

    /// A descriptor for a `.device` destination: stdout itself when `path` is the same file (`-o /dev/stdout`, so
    /// `-w` output stays in order after the body), otherwise `path` opened for writing.
    /// - Throws: ``TransferFailure`` 23 when it cannot be opened.
    static func openDevice(_ path: String) throws(TransferFailure) -> Int32 {
        var target = stat()
        var standardOutput = stat()
        if stat(path, &target) == 0, fstat(1, &standardOutput) == 0, target.st_dev == standardOutput.st_dev,
            target.st_ino == standardOutput.st_ino
        {
            return 1
        }
        return try openForWriting(path)
    }

    /// Opens `path` for writing from its start, creating it.
    /// - Throws: ``TransferFailure`` 23 when it cannot be opened.
    static func openForWriting(_ path: String) throws(TransferFailure) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TransferFailure(23, "Failed to create the file \(path)") }
        return fd
    }

    /// Writes bytes to an open descriptor.
    /// - Throws: ``TransferFailure`` 23 when writing fails.
    static func writeBytes(_ bytes: [UInt8], to fd: Int32) throws(TransferFailure) {
        guard writeAll(bytes, to: fd) else { throw TransferFailure(23, "Failure writing output") }
    }

    /// Replaces the file at `path` with `bytes`; a `.device` path is written through (see ``openDevice(_:)``).
    ///
    /// A regular file is written beside `path` and renamed over it once whole, as the library does with a
    /// download: a failed write (a full disk) leaves the old file or none, never a part.
    /// - Throws: ``TransferFailure`` 23 when it cannot be written.
    static func replaceFile(_ path: String, with bytes: [UInt8], device: Bool = false) throws(TransferFailure) {
        if device {
            let fd = try openDevice(path)
            defer { if fd != 1 { close(fd) } }
            guard writeAll(bytes, to: fd) else { throw TransferFailure(23, "Failure writing output to \(path)") }
            return
        }
        let (temporary, fd) = try createSibling(of: path)
        let written = writeAll(bytes, to: fd)
        let closed = close(fd) == 0
        guard written && closed && rename(temporary, path) == 0 else {
            unlink(temporary)
            throw TransferFailure(23, "Failure writing output to \(path)")
        }
    }

    /// Creates a new hidden file beside `path` (same directory, so a rename replaces `path` atomically), with the
    /// mode a file `open` creates (0644 less the umask).
    private static func createSibling(of path: String) throws(TransferFailure) -> (String, Int32) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        for attempt in 0..<100 {
            let candidate = "\(directory).\(name).\(getpid()).\(attempt).asi-part"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 { return (candidate, fd) }
            if errno != EEXIST { break }
        }
        throw TransferFailure(23, "Failed to create the file \(path)")
    }

    /// The status line (as curl prints it: ``Verbose/statusLine(_:)``) and header fields as they came, each line
    /// ending in CRLF, then an empty line.
    static func headText(_ head: ResponseHead) -> String {
        var text = Verbose.statusLine(head) + "\r\n"
        for field in head.headerFields { text += "\(field.name.rawName): \(field.value)\r\n" }
        return text + "\r\n"
    }

    /// The trailer fields as `-i` prints them after the body, as curl does: one line each, no status line and no
    /// empty line after.
    static func trailerText(_ trailers: HTTPFields) -> String {
        var text = ""
        for field in trailers { text += "\(field.name.rawName): \(field.value)\r\n" }
        return text
    }

    /// Whether the descriptor is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
