public import FoundationEssentials
public import HTTPCore

/// What happened on the way to a final response: the URLs, redirects, retries and connection.
public struct ExchangeInfo: Sendable {
    /// The request's ID, shared by every hop and retry.
    public var requestID: RequestID
    /// The URL the request started at (ASIHTTPRequest's `originalURL`).
    public var originalURL: URL
    /// The last request sent, after redirects (its `url` is ASIHTTPRequest's `url` after a redirect). Carries the
    /// caller's `userInfo` and `tag`.
    public var finalRequest: Request
    /// How many redirects were followed.
    public var redirectCount: Int
    /// How many times the request was sent again after a timeout (ASIHTTPRequest's `retryCount`).
    public var retryCount: Int
    /// The connection that carried the final response; `nil` when it came from the cache.
    public var connectionID: UInt64?
    /// Whether the response came from the cache store (ASIHTTPRequest's `didUseCachedResponse`).
    public var isFromCache: Bool
    /// How the cache took part: hit, miss, revalidated, fallback or not cached; `nil` when the client has no
    /// cache or the request did not use it (a method other than `GET`).
    public var cacheOutcome: CacheOutcome? = nil
    /// The cookies the final response set, whether or not they were stored (`responseCookies`).
    public var responseCookies: [Cookie]

    /// The final URL.
    public var url: URL { finalRequest.url }
}
