public import FoundationEssentials

/// Everything a ``CacheStore`` keeps about a response except its body: status, header fields, dates, storage
/// policy and the request fields its `Vary` names.
///
/// A lookup returns the head first (in a ``CacheEntry``), so the pipeline can decide whether the entry is fresh,
/// must be revalidated or will be replaced before any body byte is read. After a `304` the pipeline replaces the
/// head alone with ``CacheStore/updateHead(_:forKey:replacing:)``.
public struct CachedResponseHead: Sendable, Hashable {
    /// The status of the stored response.
    public var status: HTTPResponse.Status
    /// Its header fields as received, without `Content-Length` and `Transfer-Encoding`, and without
    /// `Content-Encoding` when the pipeline stored the body decoded (it does for every coding the client has a
    /// codec for); a coding it cannot undo stays, with the body as sent.
    public var headerFields: HTTPFields
    /// When it was stored or last revalidated.
    public var storedAt: Date
    /// When it goes stale; `nil` means it must be revalidated before use.
    public var expiresAt: Date?
    /// How long the entry is kept: for the session, or across launches (ASIHTTPRequest's `cacheStoragePolicy`).
    public var storagePolicy: CacheStoragePolicy
    /// The values the request that fetched the response had for each field the response's `Vary` names; a
    /// named field the request did not send is absent. Empty when the response has no `Vary`.
    public var varyingRequestFields: HTTPFields

    /// Creates a head.
    /// - Parameters:
    ///   - status: The status.
    ///   - headerFields: The header fields.
    ///   - storedAt: When it was stored.
    ///   - expiresAt: When it goes stale.
    ///   - storagePolicy: How long it is kept.
    ///   - varyingRequestFields: The request's values of the fields named by `Vary`.
    public init(
        status: HTTPResponse.Status,
        headerFields: HTTPFields,
        storedAt: Date,
        expiresAt: Date?,
        storagePolicy: CacheStoragePolicy = .sessionDuration,
        varyingRequestFields: HTTPFields = [:]
    ) {
        self.status = status
        self.headerFields = headerFields
        self.storedAt = storedAt
        self.expiresAt = expiresAt
        self.storagePolicy = storagePolicy
        self.varyingRequestFields = varyingRequestFields
    }

    /// Whether the response may be used without asking the server at `date`.
    /// - Parameter date: The time to check.
    /// - Returns: `true` while `expiresAt` is in the future.
    public func isFresh(at date: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt > date
    }
}
