public import FoundationEssentials

/// A response as a ``CacheStore`` keeps it: status, headers, the body as it was received (still compressed when
/// it came with a `Content-Encoding`; the pipeline decodes it on the way out) and when it goes stale.
public struct CachedResponse: Sendable, Hashable {
    /// The status of the stored response.
    public var status: HTTPResponse.Status
    /// Its header fields, `Content-Encoding` included.
    public var headerFields: HTTPFields
    /// The body.
    public var body: [UInt8]
    /// When it was stored or last revalidated.
    public var storedAt: Date
    /// When it goes stale; `nil` means it must be revalidated before use.
    public var expiresAt: Date?

    /// Creates a cached response.
    /// - Parameters:
    ///   - status: The status.
    ///   - headerFields: The header fields.
    ///   - body: The body.
    ///   - storedAt: When it was stored.
    ///   - expiresAt: When it goes stale.
    public init(
        status: HTTPResponse.Status,
        headerFields: HTTPFields,
        body: [UInt8],
        storedAt: Date,
        expiresAt: Date?
    ) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.storedAt = storedAt
        self.expiresAt = expiresAt
    }

    /// Whether the response may be used without asking the server at `date`.
    /// - Parameter date: The time to check.
    /// - Returns: `true` while `expiresAt` is in the future.
    public func isFresh(at date: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt > date
    }
}
