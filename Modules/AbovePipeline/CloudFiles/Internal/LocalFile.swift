#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's size and modification time, as python-swiftclient names segments with them.
struct LocalFile {
    var size: Int64
    /// `%f` of the modification time in seconds, as swiftclient writes `X-Object-Meta-Mtime`.
    var mtime: String

    init(path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CloudFilesError(
                code: .invalidInput, message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw CloudFilesError(code: .invalidInput, message: "\(path) is not a regular file")
        }
        size = Int64(info.st_size)
        let micros = String(info.st_mtim.tv_nsec / 1000)
        mtime = "\(info.st_mtim.tv_sec)." + String(repeating: "0", count: 6 - micros.count) + micros
    }

    /// `%08d`.
    static func index(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, 8 - text.count)) + text
    }
}
