/// A response head and its streaming body, as a transport returns it.
public struct Response: Sendable {
    /// The status code and reason phrase.
    public var status: HTTPResponse.Status
    /// The version the server answered with.
    public var version: HTTPVersion
    /// The header fields; lookups are case-insensitive.
    public var headerFields: HTTPFields
    /// The body. Read it once, or call ``ResponseBody/discard()``.
    public var body: ResponseBody
    /// Which connection carried the response (ASIHTTPRequest's `connectionID`): equal IDs mean a reused
    /// connection. `nil` when the response did not come from a connection, for example from a cache.
    public var connectionID: UInt64?
    /// The route the transport used: ``ProxyRoute/direct``, or the proxy the connection goes through.
    public var route: ProxyRoute
    /// Whether the proxy on ``route`` produced or relayed this response: a response over a plain HTTP proxy, or the
    /// proxy's own answer to `CONNECT`. `false` for a direct connection and for every response from inside a
    /// `CONNECT` tunnel, which only the origin can send. The pipeline answers a 407 as a proxy's challenge only
    /// when this is `true`, so an origin behind a tunnel can never ask for, or make the pipeline forget, proxy
    /// credentials.
    public var isFromProxy: Bool

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status.
    ///   - version: The protocol version.
    ///   - headerFields: The header fields.
    ///   - body: The body.
    ///   - connectionID: The connection that carried it, if any.
    ///   - route: The route the transport used.
    ///   - isFromProxy: Whether the proxy produced or relayed the response (see ``isFromProxy``).
    public init(
        status: HTTPResponse.Status,
        version: HTTPVersion = .http1_1,
        headerFields: HTTPFields = [:],
        body: ResponseBody = .empty,
        connectionID: UInt64? = nil,
        route: ProxyRoute = .direct,
        isFromProxy: Bool = false
    ) {
        self.status = status
        self.version = version
        self.headerFields = headerFields
        self.body = body
        self.connectionID = connectionID
        self.route = route
        self.isFromProxy = isFromProxy
    }

    /// The whole status line, for example `HTTP/1.1 404 Not Found` (ASIHTTPRequest's `responseStatusMessage`).
    public var statusLine: String {
        "\(version) \(status.code) \(status.reasonPhrase)"
    }
}
