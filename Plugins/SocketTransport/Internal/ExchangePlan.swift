import HTTPCore

/// Everything about one request on one route that does not change between attempts: the serialised head, the
/// body framing, the timeouts and whether the connection is kept afterwards.
struct ExchangePlan: Sendable {
    let request: Request
    let target: RequestTarget
    var key: PoolKey
    /// The header fields to send: the request's, with what the route adds (`Connection`, `Proxy-Authorization`).
    let fields: HTTPFields
    /// Whether the request goes to a plain HTTP proxy in absolute form, the one case that sends
    /// `Proxy-Authorization`.
    let throughHTTPProxy: Bool
    let framing: BodyFraming
    /// The inactivity timeout (``NanoTime``), `never` for none.
    let timeout: UInt64
    /// The request's low-speed limit (curl's `--speed-limit` and `--speed-time`), if any.
    let lowSpeed: LowSpeedLimit?
    /// Whether to keep the connection after the response (``Request/usesPersistentConnection``).
    let persistent: Bool
    /// How long the connection may wait idle for reuse, unless the server's `Keep-Alive: timeout=` says otherwise.
    let idleTimeout: UInt64
    /// For a `CONNECT` tunnel, the `Proxy-Authorization` to send with `CONNECT`; `nil` otherwise.
    let tunnelAuthorization: ProxyAuthorization?

    /// Plans a direct exchange with the origin.
    /// - Parameters:
    ///   - request: The request.
    ///   - target: The request's URL taken apart.
    ///   - idleTimeout: The configured idle lifetime of pooled connections, if any.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidRequest``, see
    ///   ``init(request:target:route:proxyAuthorization:idleTimeout:bindsConnection:)``.
    init(request: Request, target: RequestTarget, idleTimeout: Duration?) throws {
        try self.init(request: request, target: target, route: .direct, proxyAuthorization: nil,
                      idleTimeout: idleTimeout)
    }

    /// Plans the exchange over one route.
    ///
    /// Header fields are sent as given, plus what the wire needs: `Host`, the body framing, and `Connection`
    /// when the request does not match the version's default: `close` when the connection will be closed
    /// afterwards (RFC 9112 §9.6 asks this of a client that will not reuse it), `keep-alive` for a persistent
    /// HTTP/1.0 request. A `Connection` field set by the caller is left alone.
    ///
    /// Through an HTTP or HTTPS proxy, an `http` URL's request target is in absolute form
    /// (`GET http://origin:8080/path?q HTTP/1.1`, RFC 9112 §3.2.2), `Host` still names the origin, and
    /// `Proxy-Authorization` is set from `proxyAuthorization` when it is for this proxy (a field the caller set
    /// is kept otherwise). An `https` URL over such a proxy goes through a `CONNECT` tunnel: `proxyAuthorization`
    /// goes with `CONNECT` only (``tunnelAuthorization``). Through a SOCKS proxy the request is in origin form,
    /// as directly. On every route but the absolute form to a proxy a `Proxy-Authorization` field is dropped, so
    /// it never reaches an origin or goes down a tunnel.
    /// - Parameters:
    ///   - request: The request.
    ///   - target: The request's URL taken apart.
    ///   - route: The route to send it over.
    ///   - proxyAuthorization: The pipeline's answer to a proxy's 407 challenge, if any.
    ///   - idleTimeout: The configured idle lifetime of pooled connections, if any.
    ///   - bindsConnection: Whether the exchange is part of a connection-bound handshake (the context has a
    ///     ``RequestContext/preferredConnectionID``). A tunnel's key then leaves out its `CONNECT` authorization:
    ///     the handshake's steps each bring another one but must find the same connection, which the pool keeps
    ///     for the requests that name it.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidRequest`` for header injection or a body of
    ///   unknown length with HTTP/1.0 (which has no chunked coding).
    init(
        request: Request,
        target: RequestTarget,
        route: ProxyRoute,
        proxyAuthorization: ProxyAuthorization?,
        idleTimeout: Duration?,
        bindsConnection: Bool = false
    ) throws {
        self.request = request
        self.target = target
        let mode = Mode(route, target: target, tunnelsAlways: request.options.tunnelsThroughProxy)
        let throughHTTPProxy = mode == .forward
        let authorization = proxyAuthorization.flatMap { $0.applies(to: route) ? $0 : nil }
        tunnelAuthorization = mode == .tunnel ? authorization : nil
        key = PoolKey(scheme: target.scheme, host: target.host, port: target.port,
                      tls: target.isSecure ? request.options.tls : nil, proxy: route.isDirect ? nil : route,
                      tunnelAuthorization: bindsConnection ? nil : tunnelAuthorization?.value,
                      forcesTunnel: mode == .tunnel && !target.isSecure)
        let version = request.options.httpVersion
        if let body = request.body {
            framing = body.length.map { .contentLength($0) } ?? .chunked
        } else if request.method == .post || request.method == .put || request.method == .patch {
            framing = .contentLength(0)
        } else {
            framing = .none
        }
        if framing == .chunked && version < .http1_1 {
            throw ClientError(.invalidRequest, stage: .transport,
                              message: "A body of unknown length cannot be sent with HTTP/1.0")
        }
        persistent = request.usesPersistentConnection
        var fields = request.headerFields
        if fields[.connection] == nil {
            if !persistent {
                fields[.connection] = "close"
            } else if version < .http1_1 {
                fields[.connection] = "keep-alive"
            }
        }
        if throughHTTPProxy, let authorization {
            fields[.proxyAuthorization] = authorization.value
        }
        // Checked now, so a request that cannot be sent takes no connection; written on the connection's buffer.
        try HTTP1RequestSerializer.validate(
            target: Self.requestTarget(target, throughHTTPProxy: throughHTTPProxy), host: target.hostField,
            fields: fields, keepsProxyAuthorization: throughHTTPProxy)
        self.fields = fields
        self.throughHTTPProxy = throughHTTPProxy
        timeout = request.options.timeout.map(NanoTime.nanoseconds) ?? NanoTime.never
        lowSpeed = request.options.lowSpeedLimit
        self.idleTimeout = NanoTime.nanoseconds(idleTimeout ?? request.options.persistentConnectionTimeout)
    }

    /// Appends the request line, the header fields and the empty line that ends the head to `out`.
    /// - Throws: Nothing in practice: what could fail was checked when the plan was made (the same
    ///   ``ClientError`` otherwise).
    func appendHead(to out: inout [UInt8]) throws {
        try HTTP1RequestSerializer.appendHead(
            to: &out, method: request.method, target: Self.requestTarget(target, throughHTTPProxy: throughHTTPProxy),
            version: request.options.httpVersion,
            host: target.hostField, fields: fields, framing: framing, keepsProxyAuthorization: throughHTTPProxy)
    }

    /// The request target for the request line: the origin form, or the absolute form to a plain HTTP proxy.
    private static func requestTarget(_ target: RequestTarget, throughHTTPProxy: Bool) -> String {
        throughHTTPProxy ? target.scheme + "://" + target.hostField + target.path : target.path
    }

    /// The request line, the header fields and the empty line that ends the head, in a new array.
    var head: [UInt8] {
        get throws {
            var out: [UInt8] = []
            try appendHead(to: &out)
            return out
        }
    }

    /// How a request travels over its route.
    enum Mode: Equatable {
        /// Straight to the origin.
        case direct
        /// To an HTTP or HTTPS proxy, with the absolute-form target (an `http` URL).
        case forward
        /// Through a `CONNECT` tunnel of an HTTP or HTTPS proxy, with TLS to the origin inside it for an `https`
        /// URL (an `http` URL only when the request asks, ``RequestOptions/tunnelsThroughProxy``).
        case tunnel
        /// Through a SOCKS proxy: after its handshake the socket is the origin's, in origin form.
        case socks

        /// The mode for `route` and `target`; `tunnelsAlways` tunnels `http` URLs too (curl's `-p`).
        init(_ route: ProxyRoute, target: RequestTarget, tunnelsAlways: Bool = false) {
            switch route.kind {
            case .http, .https: self = target.isSecure || tunnelsAlways ? .tunnel : .forward
            case .socks4a, .socks5: self = .socks
            default: self = .direct
            }
        }
    }
}
