public import FoundationEssentials
public import HTTPCore

/// A finished exchange with its body in memory, as ``Client/send(_:)`` returns it.
///
/// A 404 or 500 is a normal `ClientResponse`; check ``status``.
public struct ClientResponse: Sendable {
    /// The final response's status line and header fields.
    public var head: ResponseHead
    /// The body, decoded of its transfer coding and, when the client has a codec for it, of its content coding
    /// (ASIHTTPRequest's `responseData`). Empty when it was saved to a file or handed to a data callback.
    public var body: [UInt8]
    /// The body as received, before content decoding (`rawResponseData`): the compressed bytes when the response
    /// was inflated at the end (``RequestOptions/inflatesWhenComplete``), otherwise the same as ``body``.
    public var rawBody: [UInt8]
    /// URLs, redirects, retries and connection.
    public var info: ExchangeInfo
    /// The trailer fields that followed the body (an HTTP/1.1 chunked trailer section, or HTTP/2 trailers, also
    /// beside a `Content-Length`); `nil` when there were none, and for a response answered from the cache, which
    /// keeps no trailers. See ``HTTPCore/ResponseBody/trailers``.
    public var trailers: HTTPFields? = nil

    /// Creates a response.
    /// - Parameters:
    ///   - head: The head.
    ///   - body: The body; ``rawBody`` starts out the same.
    ///   - info: The exchange details.
    public init(head: ResponseHead, body: [UInt8], info: ExchangeInfo) {
        self.head = head
        self.body = body
        self.rawBody = body
        self.info = info
    }

    /// The status (ASIHTTPRequest's `responseStatusCode` is `status.code`).
    public var status: HTTPResponse.Status { head.status }
    /// The header fields (`responseHeaders`); lookups are case-insensitive.
    public var headerFields: HTTPFields { head.headerFields }
    /// The final URL.
    public var url: URL { info.url }
    /// Whether a stored entry answered (ASIHTTPRequest's `didUseCachedResponse`): a hit, a `304` revalidation or a
    /// fallback.
    public var didUseCachedResponse: Bool { info.isFromCache }
    /// Whether the response came with a content coding other than `identity` (ASIHTTPRequest's
    /// `isResponseCompressed`, which looked for `gzip` only).
    public var isResponseCompressed: Bool { !ContentCoding.codings(in: headerFields).isEmpty }

    /// The body as text, decoded with the `charset` of `Content-Type` (ASIHTTPRequest's `responseString`).
    ///
    /// UTF-8, US-ASCII, ISO-8859-1, Windows-1252 and UTF-16 are understood. Without a charset it understands, a type
    /// that is UTF-8 by definition (JSON, YAML, JavaScript and the others of ``TextEncoding/init(impliedBy:body:)``)
    /// is decoded as UTF-8, and XML as its declaration says; any other type or no `Content-Type` uses
    /// `defaultEncoding`.
    /// - Parameter defaultEncoding: The charset used when neither the response nor its media type names one;
    ///   ISO-8859-1 as in ASIHTTPRequest.
    /// - Returns: The decoded text; invalid UTF-8 sequences become U+FFFD.
    public func text(defaultEncoding: TextEncoding = .isoLatin1) -> String {
        guard let contentType = headerFields[.contentType] else { return defaultEncoding.decode(body) }
        let encoding =
            TextEncoding(contentType: contentType) ?? TextEncoding(impliedBy: contentType, body: body)
            ?? defaultEncoding
        return encoding.decode(body)
    }
}
