import FoundationEssentials
public import HTTPCore
import Synchronization

/// An ``HSTSStore`` kept in curl's HSTS cache file (``CurlHSTSFile``), the file `curl --hsts FILE` reads and
/// writes, so curl and ASIKit share what hosts asked for HTTPS only.
///
/// - The file is read once, when the store is created; a missing file is an empty store, lines that do not parse
///   are skipped (``skippedLines``), expired entries dropped.
/// - ``save()`` (also called by ``shutdown()``) writes the file atomically, as the CookieFile plug-in does: a
///   temporary file in the same folder, `fsync`, then `rename`, under an exclusive lock (`flock` on the folder),
///   after reading the file again. Hosts another process added, changed or removed since this store last read or
///   wrote the file are kept; this store's own changes win for the hosts it touched. The file is created readable
///   by its owner only (0600): it tells where the user has been.
/// - Matching, update and limits are ``HSTSStorage``'s; the pipeline decides what to record.
///
/// ```swift
/// let hsts = try HSTSFileStore(path: "/home/me/.hsts.txt")
/// let client = Client(transport: .posix(), hsts: hsts)
/// // ... requests ...
/// try await client.shutdown()  // writes the file
/// ```
public final class HSTSFileStore: HSTSStore {
    private struct State {
        var storage: HSTSStorage
        /// The entries last read from or written to the file.
        var base: [String: HSTSEntry]
        /// ``HSTSStorage/revision`` when the file was last read or written.
        var syncedRevision: UInt64
    }

    /// The HSTS file.
    public let path: String
    /// How many lines of the file did not parse when it was read.
    public let skippedLines: Int
    private let io: SharedFileIO
    private let state: Mutex<State>

    /// Opens an HSTS file and loads its entries.
    /// - Parameters:
    ///   - path: The file; it need not exist yet, but its folder must for ``save()``.
    ///   - beforeRename: Called during ``save()`` after the temporary file is written, before the rename (tests).
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed`` when the file exists and cannot be read.
    public init(path: String, beforeRename: (@Sendable () -> Void)? = nil) throws(ClientError) {
        self.path = path
        io = HSTSFileIO.file(at: path, beforeRename: beforeRename)
        let (entries, skipped) = try io.read().map(CurlHSTSFile.entries(in:)) ?? ([:], 0)
        skippedLines = skipped
        let now = Date()
        var storage = HSTSStorage()
        for entry in entries.values { storage.update(entry, at: now) }
        state = Mutex(State(storage: storage, base: entries, syncedRevision: storage.revision))
    }

    /// The entry whose policy covers `host` now, if any.
    /// - Parameter host: The host name.
    /// - Returns: The entry.
    public func entry(covering host: String) async -> HSTSEntry? {
        let now = Date()
        return state.withLock { $0.storage.entry(covering: host, at: now) }
    }

    /// Records an entry; it reaches the file on the next ``save()``.
    /// - Parameter entry: The entry; an expired one removes the host.
    public func update(_ entry: HSTSEntry) async {
        let now = Date()
        state.withLock { $0.storage.update(entry, at: now) }
    }

    /// Every entry in memory.
    public var entries: [HSTSEntry] { state.withLock { Array($0.storage.entries.values) } }

    /// Whether no host is known.
    public var isKnownEmpty: Bool { state.withLock { $0.storage.isEmpty } }

    /// Writes the file when anything changed since it was read or written, merged with what other processes
    /// wrote meanwhile.
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed`` when the file cannot be read or written.
    public func save() throws(ClientError) {
        guard state.withLock({ $0.storage.revision != $0.syncedRevision }) else { return }
        try io.withLock { () throws(ClientError) -> Void in
            let onDisk = try io.read().map { CurlHSTSFile.entries(in: $0).entries } ?? [:]
            let now = Date()
            let merged = state.withLock { state -> [String: HSTSEntry] in
                var merged = onDisk
                let ours = state.storage.entries
                for host in Set(ours.keys).union(state.base.keys) where ours[host] != state.base[host] {
                    merged[host] = ours[host]
                }
                return merged
            }
            try io.replace(with: CurlHSTSFile.bytes(for: merged.values, at: now))
            state.withLock { state in
                var storage = HSTSStorage(maxEntries: state.storage.maxEntries)
                for entry in merged.values { storage.update(entry, at: now) }
                state = State(storage: storage, base: merged, syncedRevision: storage.revision)
            }
        }
    }

    /// Writes the file (``save()``).
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed``.
    public func shutdown() async throws {
        try save()
    }
}
