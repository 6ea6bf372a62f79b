public import HTTPCore

/// The default cache store: keeps nothing, so every request goes to the network.
public struct NoCache: CacheStore {
    /// Creates the store.
    public init() {}

    /// Always `nil`.
    /// - Parameter key: Ignored.
    /// - Returns: `nil`.
    public func cachedResponse(forKey key: String) async -> CachedResponse? { nil }

    /// Does nothing.
    /// - Parameters:
    ///   - response: Ignored.
    ///   - key: Ignored.
    public func store(_ response: CachedResponse, forKey key: String) async {}

    /// Does nothing.
    /// - Parameter key: Ignored.
    public func removeResponse(forKey key: String) async {}
}
