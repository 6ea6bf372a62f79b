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
    /// The absolute `http` or `https` URL to send to. May carry `user:password@`, used when challenged.
    public var url: URL
    /// Header fields sent as given. A field set here is never replaced by an automatic one (such as
    /// `User-Agent` or `Authorization`), except `Cookie`, `Content-Length` and `Transfer-Encoding`,
    /// which the pipeline and transport own.
    public var headerFields: HTTPFields
    /// How the request is carried out.
    public var options: RequestOptions
    /// The method, body, `userInfo` and `tag`: shared between copies until one of them changes (copy on write).
    private var extras: Extras

    /// The request method. Any token is allowed, including custom verbs.
    public var method: HTTPRequest.Method {
        get { extras.method }
        set { uniqueExtras().method = newValue }
    }
    /// The body, or `nil` for none.
    public var body: RequestBody? {
        get { extras.body }
        set { uniqueExtras().body = newValue }
    }
    /// Arbitrary values carried with the request and never sent (ASIHTTPRequest's `userInfo`).
    public var userInfo: [String: any Sendable] {
        get { extras.userInfo }
        _modify { yield &uniqueExtras().userInfo }
    }
    /// An arbitrary number carried with the request and never sent (ASIHTTPRequest's `tag`).
    public var tag: Int {
        get { extras.tag }
        set { uniqueExtras().tag = newValue }
    }

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
        self.headerFields = headerFields
        self.options = options
        // A GET without a body (most requests) shares one storage for the fields it leaves at their defaults.
        extras = method == .get && body == nil ? Self.defaultExtras : Extras(method: method, body: body)
    }

    /// The storage of a body-less GET's method, body, `userInfo` and `tag`, shared until a copy changes one.
    private static let defaultExtras = Extras(method: .get, body: nil)

    /// The storage, copied first when another value shares it.
    private mutating func uniqueExtras() -> Extras {
        if !isKnownUniquelyReferenced(&extras) { extras = Extras(copying: extras) }
        return extras
    }

    /// The fields a request rarely changes after it is made, behind one reference: a copy of a ``Request`` (which
    /// the pipeline makes for each hop, and every async frame that keeps one holds) is 40 bytes, not 112.
    private final class Extras: @unchecked Sendable {  // mutated only while uniquely referenced
        var method: HTTPRequest.Method
        var body: RequestBody?
        var userInfo: [String: any Sendable] = [:]
        var tag = 0

        init(method: HTTPRequest.Method, body: RequestBody?) {
            self.method = method
            self.body = body
        }

        init(copying other: Extras) {
            method = other.method
            body = other.body
            userInfo = other.userInfo
            tag = other.tag
        }
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
