/// A response head and its streaming body, as a transport returns it.
public struct Response: Sendable {
    /// The status line and header fields, made once by the transport and carried unchanged to the caller.
    public var head: ResponseHead
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

    /// Creates a response around a head.
    /// - Parameters:
    ///   - head: The status line and header fields.
    ///   - body: The body.
    ///   - connectionID: The connection that carried it, if any.
    ///   - route: The route the transport used.
    ///   - isFromProxy: Whether the proxy produced or relayed the response (see ``isFromProxy``).
    public init(
        head: ResponseHead,
        body: ResponseBody = .empty,
        connectionID: UInt64? = nil,
        route: ProxyRoute = .direct,
        isFromProxy: Bool = false
    ) {
        self.head = head
        self.body = body
        self.connectionID = connectionID
        self.route = route
        self.isFromProxy = isFromProxy
    }

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
        self.init(
            head: ResponseHead(status: status, version: version, headerFields: headerFields), body: body,
            connectionID: connectionID, route: route, isFromProxy: isFromProxy)
    }

    /// The status code and reason phrase (``ResponseHead/status``).
    public var status: HTTPResponse.Status {
        get { head.status }
        set { head.status = newValue }
    }

    /// The version the server answered with (``ResponseHead/version``).
    public var version: HTTPVersion {
        get { head.version }
        set { head.version = newValue }
    }

    /// The header fields; lookups are case-insensitive (``ResponseHead/headerFields``).
    public var headerFields: HTTPFields {
        get { head.headerFields }
        _modify { yield &head.headerFields }
        set { head.headerFields = newValue }
    }

    /// The whole status line, for example `HTTP/1.1 404 Not Found` (ASIHTTPRequest's `responseStatusMessage`).
    public var statusLine: String { head.statusLine }
}
