public import HTTPCore
import Synchronization

/// A ``CacheStore`` on files: ASIHTTPRequest's `ASIDownloadCache`, crash-safe and shared safely between
/// processes.
///
/// Each entry is a head file and a body file in ``Configuration/directory``'s `entries/`, named after the
/// SHA-256 of the key. A body streams into a temporary file and is published on commit: the body is renamed
/// into place under a new version name, then the head (versioned and checksummed) is renamed over the old one,
/// so a lookup sees the old entry or the new one, never a mix, and a process killed at any point leaves no entry
/// that could be served half. A head that does not pass its checksum (truncated, corrupt, another format) reads
/// as no entry and is removed.
///
/// - Lookups go through an in-memory index, built from the directory on first use and checked against the head
///   file's identity, so an entry another process replaced or removed is read again.
/// - ``Configuration/maxSize`` is kept by removing the least recently used entries: in ``run()`` when the
///   client runs its plug-ins, else right after the commit that crossed it.
/// - Session entries (``CacheStoragePolicy/sessionDuration``) are removed when the store first touches the
///   directory (``Configuration/clearsSessionEntriesAtStart``) and by `removeEntries(with: .sessionDuration)`.
/// - Several stores and processes may share a directory: the publish, head-update and remove steps take an
///   `flock` on `lock`, temporary names are unique, and the last commit wins.
///
/// Heads may hold the request fields a response varies on; every file is mode 0600 in a 0700 directory.
public final class DiskCacheStore: CacheStore {
    struct State {
        var index = CacheIndex()
        /// Wakes ``run()`` while it runs.
        var runner: AsyncStream<Void>.Continuation?
        var isShutDown = false
    }

    /// The store's settings.
    public let configuration: Configuration
    let directory: CacheDirectory
    let state = Mutex(State())
    /// Whether the directory was scanned; held while the first call scans it.
    let preparation = Mutex(false)

    /// Creates a store; it touches the directory on first use.
    /// - Parameter configuration: Where and how much to keep.
    public init(configuration: Configuration) {
        self.configuration = configuration
        var root = configuration.directory
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        self.directory = CacheDirectory(root: root)
    }

    /// Returns the entry under `key`: its head, read and verified, and its body unopened.
    /// - Parameter key: The cache key.
    /// - Returns: The entry, or `nil` when there is none (or only a corrupt one, which is removed).
    /// - Throws: ``ClientError`` (`storageFailed`) when the directory cannot be read.
    public func entry(forKey key: String) async throws -> CacheEntry? {
        try prepare()
        let hash = SHA256.hex(key)
        guard let file = try currentHead(hash: hash, key: key) else { return nil }
        POSIXFile.touch(directory.headPath(hash))
        return CacheEntry(
            head: file.head,
            body: DiskCachedBody(path: directory.bodyPath(hash, file.bodyName), length: file.bodyLength))
    }

    /// Starts an entry in a temporary file; declines it when `expectedLength` is over the entry cap, or when its
    /// head file would be larger than the 1 MiB a store reads back.
    /// - Parameters:
    ///   - key: The cache key.
    ///   - head: The entry's head.
    ///   - expectedLength: The announced body length, if any.
    /// - Returns: A writer, or `nil` when the entry or its head is too large.
    /// - Throws: ``ClientError`` (`storageFailed`) when the temporary file cannot be created.
    public func makeWriter(
        forKey key: String, head: CachedResponseHead, expectedLength: Int64?
    ) async throws
        -> (any CacheEntryWriter)?
    {
        try prepare()
        if let expectedLength, expectedLength > configuration.maxEntrySize { return nil }
        guard HeadFile.fits(key: key, head: head) else { return nil }  // it would read back as corrupt
        return try DiskCacheEntryWriter(store: self, key: key, head: head)
    }

    /// Replaces the head of the entry under `key` while it is still `previous`; the body file is untouched. A head
    /// too large to read back (over 1 MiB on disk) leaves the stored one in place.
    /// - Parameters:
    ///   - head: The new head.
    ///   - key: The cache key.
    ///   - previous: The head the lookup returned.
    /// - Throws: ``ClientError`` (`storageFailed`) when the head cannot be written.
    public func updateHead(
        _ head: CachedResponseHead, forKey key: String, replacing previous: CachedResponseHead
    )
        async throws
    {
        try prepare()
        try replaceHead(with: head, key: key, ifStill: previous)
    }

    /// Removes the entry under `key`, if any.
    /// - Parameter key: The cache key.
    /// - Throws: ``ClientError`` (`storageFailed`) when the directory cannot be changed.
    public func removeEntry(forKey key: String) async throws {
        try prepare()
        try remove(hash: SHA256.hex(key))
    }

    /// Removes every entry stored with `policy`, written by this store or any other on the directory.
    /// - Parameter policy: The storage policy.
    /// - Throws: ``ClientError`` (`storageFailed`) when the directory cannot be read or changed.
    public func removeEntries(with policy: CacheStoragePolicy) async throws {
        try prepare()
        try removeEntries { $0.head.storagePolicy == policy }
    }

    /// Removes every entry.
    /// - Throws: ``ClientError`` (`storageFailed`) when the directory cannot be read or changed.
    public func removeAll() async throws {
        try prepare()
        try removeEntries { _ in true }
    }

    /// The bytes of the entries this store knows (bodies and heads), as counted for ``Configuration/maxSize``.
    public var knownSize: Int64 { state.withLock { $0.index.totalSize } }
}
