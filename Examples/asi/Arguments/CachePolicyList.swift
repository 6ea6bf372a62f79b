import ArgumentParser
import HTTPCore

/// `--cache-policy LIST`: ASIHTTPRequest's cache policy names, comma-separated, combined as its bitmask.
struct CachePolicyList: ExpressibleByArgument, Sendable {
    /// Each name and the ASIHTTPRequest bit it stands for.
    static let names: [(name: String, policy: CachePolicy)] = [
        ("default", .useDefault),  // ASIUseDefaultCachePolicy (0)
        ("no-read", .doNotReadFromCache),  // 1
        ("no-write", .doNotWriteToCache),  // 2
        ("ask-if-stale", .askServerIfModifiedWhenStale),  // 4
        ("always-ask", .askServerIfModified),  // 8
        ("only-if-cached", .onlyLoadIfNotCached),  // 16
        ("dont-load", .dontLoad),  // 32
        ("fallback", .fallbackToCacheIfLoadFails),  // 64
    ]

    /// The combined policy.
    let policy: CachePolicy

    init?(argument: String) {
        var policy: CachePolicy = []
        for item in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(item.filter { $0 != " " }).lowercased()
            guard let entry = Self.names.first(where: { $0.name == name }) else { return nil }
            policy.formUnion(entry.policy)
        }
        self.policy = policy
    }

    static var allValueStrings: [String] { names.map(\.name) }
}
