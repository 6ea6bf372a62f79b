import HTTPCore

/// Everything about one request that does not change between attempts: the serialised head, the body framing,
/// the timeouts and whether the connection is kept afterwards.
struct ExchangePlan: Sendable {
    let request: Request
    let target: RequestTarget
    let key: PoolKey
    /// The request line and header fields, ready to send.
    let head: [UInt8]
    let framing: BodyFraming
    /// The inactivity timeout (``NanoTime``), `never` for none.
    let timeout: UInt64
    /// Whether to keep the connection after the response (``Request/usesPersistentConnection``).
    let persistent: Bool
    /// How long the connection may wait idle for reuse, unless the server's `Keep-Alive: timeout=` says otherwise.
    let idleTimeout: UInt64

    /// Plans the exchange.
    ///
    /// Header fields are sent as given, plus what the wire needs: `Host`, the body framing, and `Connection`
    /// when the request does not match the version's default: `close` when the connection will be closed
    /// afterwards (RFC 9112 §9.6 asks this of a client that will not reuse it), `keep-alive` for a persistent
    /// HTTP/1.0 request. A `Connection` field set by the caller is left alone.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidRequest`` for a bad URL, header injection, or a
    ///   body of unknown length with HTTP/1.0 (which has no chunked coding).
    init(request: Request, idleTimeout: Duration?) throws {
        self.request = request
        target = try RequestTarget(url: request.url)
        key = PoolKey(scheme: target.scheme, host: target.host, port: target.port,
                      tls: target.isSecure ? request.options.tls : nil)
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
        head = try HTTP1RequestSerializer.head(method: request.method, target: target.path, version: version,
                                               host: target.hostField, fields: fields, framing: framing)
        timeout = request.options.timeout.map(NanoTime.nanoseconds) ?? NanoTime.never
        self.idleTimeout = NanoTime.nanoseconds(idleTimeout ?? request.options.persistentConnectionTimeout)
    }
}
