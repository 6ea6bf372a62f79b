import ArgumentParser
import DiskCache
import HTTPCore

/// The cache flags: where responses are kept, and for how long.
///
/// `asi` runs are separate processes, so the disk cache treats every run on one directory as one session: a
/// session-duration entry (the default, as in ASIHTTPRequest) stays in the directory for the next run, until
/// `--cache-clear-session` ends the session. `--cache-permanent` stores entries that outlive it (and an app
/// sharing the directory, which clears session entries at its launch).
struct CacheFlags: ParsableArguments {
    @Option(
        name: .customLong("cache"),
        help: ArgumentHelp(
            "Keep responses in DIR (ASIKit's disk cache) and answer from it by the cache rules.", valueName: "dir"))
    var directory: String?

    @Flag(
        name: .customLong("cache-permanent"),
        help: "Store responses as permanent entries (default: for the session, which spans asi runs).")
    var permanent = false

    @Flag(
        name: .customLong("cache-clear-session"),
        help: "Before the transfers, remove the session entries from the --cache directory (ends the session).")
    var clearSession = false

    @Option(
        name: .customLong("cache-policy"),
        help: ArgumentHelp(
            "ASIHTTPRequest's cache policy, comma-separated names combined as its bitmask: default, no-read, no-write, "
                + "ask-if-stale, always-ask, only-if-cached, dont-load, fallback.", valueName: "list"))
    var policy: CachePolicyList?

    @Option(
        name: .customLong("cache-seconds"),
        help: ArgumentHelp(
            "Keep a stored response fresh for N seconds, whatever the server says (secondsToCache).", valueName: "n"))
    var seconds: Int?

    /// The store for `--cache`, or `nil` without it.
    func makeStore() -> DiskCacheStore? {
        directory.map { DiskCacheStore(configuration: .init(directory: $0, clearsSessionEntriesAtStart: false)) }
    }

    /// The request options with the storage policy applied.
    func applied(to options: RequestOptions) -> RequestOptions {
        var options = options
        if permanent { options.cacheStoragePolicy = .permanent }
        if let policy { options.cachePolicy = policy.policy }
        if let seconds { options.secondsToCache = seconds }
        return options
    }

    /// Clears the session entries when asked.
    func prepare(_ store: (any CacheStore)?) async throws {
        if clearSession, let store { try await store.removeEntries(with: .sessionDuration) }
    }
}
