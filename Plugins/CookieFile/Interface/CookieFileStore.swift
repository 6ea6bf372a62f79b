public import FoundationEssentials
public import HTTPCore
import Logging
import Synchronization

/// A ``CookieStore`` kept in a Netscape `cookies.txt` file that curl (`-b`/`-c`) and wget
/// (`--load-cookies`/`--save-cookies`) share.
///
/// - The file is read once, when the store is created; a missing file is an empty jar. Lines that do not parse
///   are skipped with a warning on ``Configuration/logger``; the rest of the file still loads. Cookies that have
///   already expired are dropped.
/// - ``save()`` (also called by ``shutdown()``) writes the file atomically: a temporary file in the same folder,
///   `fsync`, then `rename`, so a crash at any moment leaves the old file or the new one. The write holds an
///   exclusive lock (`flock` on the folder) and first reads the file again: cookies another process added, changed
///   or removed since this store last read or wrote the file are kept, and this store's own changes win for the
///   cookies it touched. Two processes never lose each other's cookies.
/// - Session cookies are written only with ``Configuration/keepsSessionCookies`` (curl's `-c` keeps them);
///   expired cookies never. The file is created readable by its owner only (0600).
/// - What is written reads back as the same cookies: a cookie the format cannot hold
///   (``NetscapeCookieFile/canWrite(_:)``, such as a tab or newline in its value) stays in memory only, with a
///   warning, and a file larger than the 32 MiB the store reads is not written (``save()`` throws).
/// - Matching, order, replacement and limits are ``CookieStorage``'s; the pipeline's parser decides what to keep.
///
/// ```swift
/// let jar = try CookieFileStore(path: "/home/me/.cookies.txt")
/// let client = Client(transport: .posix(), cookies: jar)
/// // ... requests ...
/// try await client.shutdown()  // writes the file
/// ```
public final class CookieFileStore: CookieStore {
    private struct State {
        var storage: CookieStorage
        /// The cookies last read from or written to the file, by identity.
        var base: [Cookie.Identity: Cookie]
        /// ``CookieStorage/revision`` when the file was last read or written.
        var syncedRevision: UInt64
        var fileExists: Bool
    }

    /// The cookie file.
    public let path: String
    /// The settings.
    public let configuration: Configuration
    private let io: SharedFileIO
    private let state: Mutex<State>

    /// Opens a cookie file and loads its cookies.
    /// - Parameters:
    ///   - path: The file; it need not exist yet, but its folder must for ``save()``.
    ///   - configuration: Which session cookies are kept, limits, and the logger.
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed`` when the file exists and cannot be read.
    public init(path: String, configuration: Configuration = Configuration()) throws(ClientError) {
        self.path = path
        self.configuration = configuration
        io = CookieFileIO.file(at: path, beforeRename: configuration.beforeRename)
        let now = Date()
        let bytes = try io.read()
        var storage = CookieStorage(limits: configuration.limits)
        let inFile = bytes.map { Self.cookies(in: $0, path: path, at: now, logger: configuration.logger) } ?? []
        storage.restore(configuration.loadsSessionCookies ? inFile : inFile.filter { $0.expires != nil }, at: now)
        let synced = State(storage: storage, base: Self.byIdentity(inFile), syncedRevision: storage.revision,
                           fileExists: bytes != nil)
        state = Mutex(synced)
    }

    /// Returns the unexpired cookies that match `url`, longer paths first, then older first.
    /// - Parameter url: The request URL.
    /// - Returns: The cookies to send.
    public func cookies(for url: URL) async -> [Cookie] {
        state.withLock { $0.storage.isEmpty ? [] : $0.storage.cookies(for: url, at: Date()) }
    }

    /// Keeps cookies a response set; they reach the file on the next ``save()``.
    /// - Parameters:
    ///   - cookies: The cookies.
    ///   - url: The URL that set them.
    public func store(_ cookies: [Cookie], receivedFrom url: URL) async {
        let now = Date()
        state.withLock { $0.storage.store(cookies, receivedFrom: url, at: now) }
    }

    /// Adds cookies read from elsewhere (another cookie file, for example curl's `-b FILE`), with no URL to
    /// check them against; they reach the file on the next ``save()``.
    /// - Parameter cookies: The cookies, in creation order.
    public func restore(_ cookies: [Cookie]) {
        let now = Date()
        state.withLock { $0.storage.restore(cookies, at: now) }
    }

    /// Every stored cookie, expired ones included, in creation order.
    public var allCookies: [Cookie] {
        state.withLock { $0.storage.allCookies }
    }

    /// Whether the store holds no cookie; the pipeline then skips the lookup.
    public var isKnownEmpty: Bool {
        state.withLock { $0.storage.isEmpty }
    }

    /// Removes every cookie without an expiry date; the file loses them on the next ``save()``.
    public func removeSessionCookies() {
        state.withLock { _ = $0.storage.removeSessionCookies() }
    }

    /// Removes every cookie (ASIHTTPRequest's `clearSession`); the file loses them on the next ``save()``, while
    /// cookies another process writes later are kept.
    public func removeAll() {
        state.withLock { _ = $0.storage.removeAll() }
    }

    /// Writes the file: under the folder's lock, reads it again, merges (see the type's documentation) and
    /// replaces it atomically. Does nothing when the file exists and nothing changed since it was read or written.
    ///
    /// The file I/O is synchronous and waits for the lock while another writer holds it (for its own short
    /// read-merge-write), so call it where blocking a thread briefly is acceptable, as ``shutdown()`` does.
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed`` when the file cannot be read or written, or
    ///   would be larger than the store reads back (32 MiB); the file is then unchanged.
    public func save() throws(ClientError) {
        let (ours, base, revision, isSynced) = state.withLock { state in
            let isSynced = state.storage.revision == state.syncedRevision && state.fileExists
            return (state.storage.allCookies, state.base, state.storage.revision, isSynced)
        }
        guard !isSynced else { return }
        let (merged, written) = try io.withLock { () throws(ClientError) -> ([Cookie], [Cookie]) in
            let now = Date()
            let theirs = try io.read().map { Self.cookies(in: $0, path: path, at: now, logger: configuration.logger) }
            let merged = CookieMerge.merge(base: base, ours: ours, theirs: theirs ?? [])
                .filter { !$0.isExpired(at: now) }
            let kept = merged.filter { $0.expires != nil || configuration.keepsSessionCookies }
            let written = kept.filter(NetscapeCookieFile.canWrite)
            if written.count < kept.count {
                configuration.logger.warning(
                    "Kept cookies that the cookie file cannot hold in memory only",
                    metadata: ["path": "\(path)", "count": "\(kept.count - written.count)"])
            }
            let bytes = Array(NetscapeCookieFile.format(written).utf8)
            guard bytes.count <= CookieFileIO.maxFileBytes else {
                let limit = CookieFileIO.maxFileBytes / 1_048_576
                throw ClientError(.storageFailed, stage: .cookies,
                                  message: "The cookie file would be larger than \(limit) MiB; left unchanged: \(path)")
            }
            try io.replace(with: bytes)
            return (merged, written)
        }
        let now = Date()
        state.withLock { state in
            let changedMeanwhile = state.storage.revision != revision
            let current = changedMeanwhile
                ? CookieMerge.merge(base: Self.byIdentity(ours), ours: state.storage.allCookies, theirs: merged)
                : merged
            var storage = CookieStorage(limits: configuration.limits)
            storage.restore(current, at: now)
            state.storage = storage
            state.base = Self.byIdentity(written)
            state.syncedRevision = changedMeanwhile ? UInt64.max : storage.revision
            state.fileExists = true
        }
    }

    private static func byIdentity(_ cookies: [Cookie]) -> [Cookie.Identity: Cookie] {
        Dictionary(cookies.map { ($0.identity, $0) }, uniquingKeysWith: { $1 })
    }

    /// Writes the file (``save()``).
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed``.
    public func shutdown() async throws {
        try save()
    }

    private static func cookies(in bytes: [UInt8], path: String, at now: Date, logger: Logger) -> [Cookie] {
        let contents = NetscapeCookieFile.parse(bytes, loadedAt: now)
        for line in contents.malformedLines {
            logger.warning(
                "Skipped a malformed line of the cookie file", metadata: ["path": "\(path)", "line": "\(line)"])
        }
        return contents.cookies
    }
}
