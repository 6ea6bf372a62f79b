public import HTTPCore

extension DiskCacheStore {
    /// Where a ``DiskCacheStore`` keeps its files, how much it keeps, and how long session entries live.
    public struct Configuration: Sendable {
        /// The directory the store owns (created when missing, mode 0700). Two stores, in one process or in
        /// several, may share it.
        public var directory: String
        /// The most bytes (bodies and heads) kept; past it the least recently used entries are removed.
        /// Default 512 MiB.
        public var maxSize: Int64
        /// The largest body kept; a larger response is declined (up front when its length is announced, else
        /// at the chunk that crosses the cap) and is not cached. Default 128 MiB.
        public var maxEntrySize: Int64
        /// Whether entries stored with ``CacheStoragePolicy/sessionDuration`` are removed when the store first
        /// touches the directory, so that they last one launch of the app (ASIHTTPRequest clears its session
        /// store at launch). Default `true`. Set it to `false` when several short processes make up one session
        /// (the `asi` command does: each run is a process); `removeEntries(with: .sessionDuration)` still clears
        /// them.
        public var clearsSessionEntriesAtStart: Bool
        /// Whether a body and its head are flushed to the disk (`fsync`) before they are published, so that even
        /// a power cut cannot leave a head whose body did not reach the disk. A crash of the process needs no
        /// flush either way. Default `true`.
        public var synchronizesWrites: Bool

        /// Creates a configuration.
        /// - Parameters:
        ///   - directory: The directory the store owns.
        ///   - maxSize: The most bytes kept. Default 512 MiB.
        ///   - maxEntrySize: The largest body kept. Default 128 MiB.
        ///   - clearsSessionEntriesAtStart: Whether session entries are removed at start. Default `true`.
        ///   - synchronizesWrites: Whether entries are flushed to the disk before they are published. Default
        ///     `true`.
        public init(
            directory: String,
            maxSize: Int64 = 512 << 20,
            maxEntrySize: Int64 = 128 << 20,
            clearsSessionEntriesAtStart: Bool = true,
            synchronizesWrites: Bool = true
        ) {
            self.directory = directory
            self.maxSize = maxSize
            self.maxEntrySize = maxEntrySize
            self.clearsSessionEntriesAtStart = clearsSessionEntriesAtStart
            self.synchronizesWrites = synchronizesWrites
        }
    }
}

extension CacheStore where Self == DiskCacheStore {
    /// A cache on disk in `directory`, with the default limits.
    ///
    /// ```swift
    /// let client = Client(transport: .posix(), cache: .disk("/var/cache/myapp"))
    /// ```
    /// - Parameter directory: The directory the store owns.
    /// - Returns: The store.
    public static func disk(_ directory: String) -> DiskCacheStore {
        DiskCacheStore(configuration: DiskCacheStore.Configuration(directory: directory))
    }

    /// A cache on disk with the given configuration.
    /// - Parameter configuration: Where and how much to keep.
    /// - Returns: The store.
    public static func disk(_ configuration: DiskCacheStore.Configuration) -> DiskCacheStore {
        DiskCacheStore(configuration: configuration)
    }
}
