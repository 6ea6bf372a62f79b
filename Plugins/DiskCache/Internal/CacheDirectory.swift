import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a store keeps its files: `entries/` (a head `<hash>.head` and a body `<hash>.<version>.body` per key),
/// `tmp/` (bodies and heads being written, named `<pid>-<random>`), and `lock`, the file whose `flock` makes
/// the short publish, update and remove steps atomic across processes.
struct CacheDirectory: Sendable {
    let root: String

    var entries: String { root + "/entries" }
    var temporary: String { root + "/tmp" }
    var lockFile: String { root + "/lock" }

    /// Creates the directory and its `entries/` and `tmp/` (mode 0700) unless they exist.
    func create() throws {
        try POSIXFile.makeDirectory(entries)
        try POSIXFile.makeDirectory(temporary)
    }

    /// Runs `body` holding the directory's lock (see ``POSIXFile/withLock(_:_:)``); when the directory was
    /// deleted while the store ran, creates it again first.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        do {
            return try POSIXFile.withLock(lockFile, body)
        } catch let error as ClientError where Self.isMissing(error) {
            try create()
            return try POSIXFile.withLock(lockFile, body)
        }
    }

    /// Creates a temporary file for a body, creating the directory again when it was deleted.
    func createTemporaryFile() throws -> (path: String, fd: Int32) {
        let path = newTemporaryPath()
        do {
            return (path, try POSIXFile.create(path))
        } catch let error as ClientError where Self.isMissing(error) {
            try create()
            return (path, try POSIXFile.create(path))
        }
    }

    /// Whether a failed `open` said that a directory on the path does not exist.
    static func isMissing(_ error: ClientError) -> Bool {
        guard let underlying = error.underlying as? SyscallError else { return false }
        return underlying.operation == "open" && underlying.errno == ENOENT
    }

    func headPath(_ hash: String) -> String { "\(entries)/\(hash).head" }
    func bodyPath(_ hash: String, _ bodyName: String) -> String { "\(entries)/\(hash).\(bodyName).body" }

    /// A fresh name in `tmp/`, unique across processes and tasks: the process id, then 128 random bits.
    func newTemporaryPath() -> String {
        "\(temporary)/\(getpid())-\(Self.randomName())"
    }

    /// 128 random bits in hex: a body's version name, or part of a temporary file's.
    static func randomName() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash and body version named by an entry file, or `nil` for a file that is neither a head nor a body.
    static func parse(_ name: String) -> (hash: String, bodyName: String?)? {
        let parts = name.split(separator: ".")
        if parts.count == 2, parts[1] == "head", parts[0].count == 64 { return (String(parts[0]), nil) }
        if parts.count == 3, parts[2] == "body", parts[0].count == 64 { return (String(parts[0]), String(parts[1])) }
        return nil
    }

    /// The writer's process id in a temporary file's name.
    static func writerProcess(ofTemporary name: String) -> Int32? {
        name.split(separator: "-", maxSplits: 1).first.flatMap { Int32($0) }
    }
}
