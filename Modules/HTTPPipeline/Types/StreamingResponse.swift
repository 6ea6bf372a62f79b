public import HTTPCore

/// A final response whose body is still arriving, as ``Client/stream(_:)`` returns it.
public struct StreamingResponse: Sendable {
    /// The final response's status line and header fields.
    public var head: ResponseHead
    /// The body. Read it once, or call ``ResponseBody/discard()``.
    public var body: ResponseBody
    /// URLs, redirects, retries and connection.
    public var info: ExchangeInfo
    /// The cache writer that decodes this body for the store, which a reader that decodes shares
    /// (``DecodingPlan``); `nil` when none does.
    var storeDecoding: CachingBodySource?

    /// Creates a streaming response.
    /// - Parameters:
    ///   - head: The head.
    ///   - body: The body.
    ///   - info: The exchange details.
    public init(head: ResponseHead, body: ResponseBody, info: ExchangeInfo) {
        self.head = head
        self.body = body
        self.info = info
    }

    /// The status.
    public var status: HTTPResponse.Status { head.status }
}
