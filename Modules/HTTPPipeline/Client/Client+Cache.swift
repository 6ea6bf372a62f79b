public import FoundationEssentials
public import HTTPCore

extension Client {
    /// Removes the stored response for `url`, if any (ASIDownloadCache's `removeCachedDataForURL:`).
    /// - Parameter url: The URL whose entry goes; its fragment, `user:password` and a trailing `/` do not matter.
    /// - Throws: ``ClientError`` with stage ``ClientError/Stage/cache`` when the store fails.
    public func removeCachedResponse(for url: URL) async throws {
        guard let cache else { return }
        try await staged(.cache) { try await cache.removeEntry(forKey: CacheStage.key(for: url)) }
    }

    /// Removes every stored response kept with `policy` (ASIDownloadCache's
    /// `clearCachedResponsesForStoragePolicy:`).
    /// - Parameter policy: The storage policy whose entries go.
    /// - Throws: ``ClientError`` with stage ``ClientError/Stage/cache`` when the store fails.
    public func clearCachedResponses(with policy: CacheStoragePolicy) async throws {
        guard let cache else { return }
        try await staged(.cache) { try await cache.removeEntries(with: policy) }
    }

}
