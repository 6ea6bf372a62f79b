public import FoundationEssentials

/// A request: what to send, where, and the options that govern how (timeouts, redirects, credentials, TLS).
///
/// `Request` is a value: configure it, hand it to a client, and reuse or copy it freely (ASIHTTPRequest's
/// `copy`). The same type travels through the pipeline to the transport; each redirect hop or retry is a new
/// value derived from the original.
///
/// ```swift
/// var request = Request(url: URL(string: "https://example.com/upload")!, method: .put)
/// request.headerFields[.contentType] = "text/plain"
/// request.body = .string("hello")
/// request.options.timeout = .seconds(30)
/// ```
public struct Request: Sendable {
    /// The request method. Any token is allowed, including custom verbs.
    public var method: HTTPRequest.Method
    /// The absolute `http` or `https` URL to send to. May carry `user:password@`, used when challenged.
    public var url: URL
    /// Header fields sent as given. A field set here is never replaced by an automatic one (such as
    /// `User-Agent` or `Authorization`), except `Cookie`, `Content-Length` and `Transfer-Encoding`,
    /// which the pipeline and transport own.
    public var headerFields: HTTPFields
    /// The body, or `nil` for none.
    public var body: RequestBody?
    /// How the request is carried out.
    public var options: RequestOptions
    /// Arbitrary values carried with the request and never sent (ASIHTTPRequest's `userInfo`).
    public var userInfo: [String: any Sendable]
    /// An arbitrary number carried with the request and never sent (ASIHTTPRequest's `tag`).
    public var tag: Int

    /// Creates a request.
    /// - Parameters:
    ///   - url: The absolute URL.
    ///   - method: The method; `GET` by default.
    ///   - headerFields: Header fields to send.
    ///   - body: The body, if any.
    ///   - options: How the request is carried out; ASIHTTPRequest's defaults when omitted.
    public init(
        url: URL,
        method: HTTPRequest.Method = .get,
        headerFields: HTTPFields = [:],
        body: RequestBody? = nil,
        options: RequestOptions = RequestOptions()
    ) {
        self.url = url
        self.method = method
        self.headerFields = headerFields
        self.body = body
        self.options = options
        self.userInfo = [:]
        self.tag = 0
    }

    /// Whether the transport should try to keep the connection open after this request.
    ///
    /// ``RequestOptions/persistentConnection`` when set; otherwise ASIHTTPRequest's rule: yes, except for
    /// `POST`, `PUT` and requests with a body, whose replay on a stale connection would be unsafe.
    public var usesPersistentConnection: Bool {
        if let explicit = options.persistentConnection { return explicit }
        return body == nil && method != .post && method != .put
    }

    /// Whether sending the request twice has the same effect as once (RFC 9110 §9.2.2), so a transport may
    /// resend it on a fresh connection when a reused one turns out to be closed.
    public var isIdempotent: Bool {
        switch method {
        case .get, .head, .options, .trace, .put, .delete: body?.isReplayable ?? true
        default: false
        }
    }
}
