import CookieFile
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The cookie engine behind `-b`, `-c` and `-j`: an in-memory jar, or a ``CookieFileStore`` for `-c FILE`
/// (read at the start, merged and written atomically at the end), with the `-b` files loaded into it.
struct CookieSession: Sendable {
    /// The store the client uses.
    let store: any CookieStore
    private let fileStore: CookieFileStore?
    private let memoryJar: MemoryCookieJar?
    private let writesStandardOutput: Bool
    private let cookieFiles: [String]
    private let junksSessionCookies: Bool
    private let logger: Logger

    /// Opens the `-c` file, if any.
    /// - Throws: ``TransferFailure`` 26 when the `-c` file exists and cannot be read.
    init(flags: CookieFlags, logger: Logger) throws(TransferFailure) {
        self.logger = logger
        cookieFiles = flags.cookieFiles
        junksSessionCookies = flags.junkSessionCookies
        writesStandardOutput = flags.cookieJar == "-"
        if let path = flags.cookieJar, path != "-" {
            var configuration = CookieFileStore.Configuration(
                keepsSessionCookies: true, loadsSessionCookies: !flags.junkSessionCookies, logger: logger)
            if let marker = getenv("ASI_TEST_PAUSE_BEFORE_COOKIE_RENAME").map({ String(cString: $0) }) {
                // Crash tests only: say the new file is written, then wait to be killed before the rename.
                configuration.beforeRename = {
                    _ = FileManager.default.createFile(atPath: marker, contents: nil)
                    while true { pause() }
                }
            }
            do {
                let fileStore = try CookieFileStore(path: path, configuration: configuration)
                self.fileStore = fileStore
                store = fileStore
            } catch {
                throw TransferFailure(26, "Cannot read the cookie jar: \(error.message)")
            }
            memoryJar = nil
        } else {
            let jar = MemoryCookieJar()
            memoryJar = jar
            fileStore = nil
            store = jar
        }
    }

    /// The largest `-b` file read: ``CookieFileStore``'s own cap (32 MiB). A larger file, or a device such as
    /// `/dev/zero`, is skipped with a warning after that many bytes instead of being read into memory without end.
    static let maxCookieFileBytes = 32 << 20

    /// Loads the `-b` cookie files (a missing, unreadable or oversized file is skipped, as in curl).
    func loadCookieFiles() {
        for path in cookieFiles {
            guard let data = Self.read(path) else { continue }
            guard data.count <= Self.maxCookieFileBytes else {
                logger.warning("Skipped a cookie file larger than 32 MiB", metadata: ["path": "\(path)"])
                continue
            }
            let contents = NetscapeCookieFile.parse(data, loadedAt: Date())
            for line in contents.malformedLines {
                logger.warning(
                    "Skipped a malformed line of the cookie file", metadata: ["path": "\(path)", "line": "\(line)"])
            }
            var cookies = contents.cookies
            if junksSessionCookies { cookies.removeAll { $0.expires == nil } }
            fileStore?.restore(cookies)
            memoryJar?.restore(cookies)
        }
    }

    /// At most ``maxCookieFileBytes`` + 1 bytes of a file, or `nil` when it cannot be read.
    private static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= maxCookieFileBytes {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? bytes : nil }
            bytes += buffer[..<count]
        }
        return bytes
    }

    /// Writes the `-c` jar: the file through the store, or every unexpired cookie to stdout for `-c -`.
    /// - Throws: ``TransferFailure`` 23 when it cannot be written.
    func save() throws(TransferFailure) {
        if let fileStore {
            do {
                try fileStore.save()
            } catch {
                throw TransferFailure(23, "Cannot write the cookie jar: \(error.message)")
            }
        } else if writesStandardOutput, let memoryJar {
            let now = Date()
            let cookies = memoryJar.allCookies.filter { !$0.isExpired(at: now) }
            try Output.writeStandardOutput(NetscapeCookieFile.format(cookies))
        }
    }
}
