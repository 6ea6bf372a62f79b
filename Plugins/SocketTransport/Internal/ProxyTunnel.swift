import HTTPCore

/// Opens a `CONNECT` tunnel through an HTTP or HTTPS proxy (RFC 9110 §9.3.6), for an `https` URL: the request
/// names the origin in authority form, carries `Proxy-Authorization` when the pipeline's authorization is for this
/// proxy, and a 2xx answer turns the connection into a byte pipe to the origin, over which TLS then starts.
///
/// A `407` whose challenge offers a connection-bound scheme (NTLM, Negotiate) on a connection the proxy keeps
/// open is thrown with the connection kept: the handshake's next `CONNECT` must go on the same connection.
enum ProxyTunnel {
    /// The largest 407 body kept for the caller; a bigger one is dropped (the connection closes anyway).
    static let maxChallengeBodySize = 64 * 1024

    /// How the proxy answered other than by opening the tunnel. Internal control flow: thrown by the connector and
    /// turned into a response or an error by ``TransportCore``.
    enum Answer: Error {
        /// `407 Proxy Authentication Required`: an ordinary response for the pipeline, with its route set; and
        /// the connection when it stays open for the next `CONNECT` of a connection-bound handshake.
        case challenged(Response, keeping: Connection?)
        /// Any other refusal: the request ends with this error, without trying the next route.
        case refused(ClientError)
    }

    /// Sends `CONNECT` on a fresh connection to the proxy and reads the answer.
    /// - Parameters:
    ///   - connection: The connection to the proxy, nothing sent on it yet.
    ///   - key: The pool key: the origin and the proxy route.
    ///   - authorization: The `Proxy-Authorization` to send, already checked to apply to the route; or `nil`.
    ///   - timeout: The longest wait for each read or write (the connect timeout).
    /// - Throws: ``Answer`` for a 407 or a refusal; ``RouteUnreachable`` for a `502 Bad Gateway` (the proxy could
    ///   not reach the origin, so the next route may); ``ClientError`` or `CancellationError` otherwise.
    static func open(
        on connection: Connection, key: PoolKey, authorization: ProxyAuthorization?, timeout: UInt64
    ) async throws {
        guard let proxy = key.proxy else { preconditionFailure("a tunnel needs a proxy route") }
        let authority = (key.host.contains(":") ? "[\(key.host)]" : key.host) + ":" + String(key.port)
        var fields = HTTPFields()
        if let authorization { fields[.proxyAuthorization] = authorization.value }
        let request = try HTTP1RequestSerializer.head(
            method: .connect, target: authority, version: .http1_1, host: authority, fields: fields, framing: .none,
            keepsProxyAuthorization: true)
        connection.inactivityTimeout = timeout
        connection.parser.expectResponse(toMethod: .connect)
        try await connection.write(request)

        let (head, body, ended) = try await readAnswer(on: connection)
        switch head.status.code {
        case 200..<300:
            guard !connection.parser.hasBufferedBytes else {
                throw ClientError(.protocolViolation, stage: .transport,
                                  message: "The proxy \(proxy) sent data before the TLS handshake with \(authority)")
            }
            connection.parser = HTTP1ResponseParser(limits: connection.parser.limits)
        case 407:
            let kept = body ?? []
            let length = kept.reduce(0) { $0 + $1.count }
            // The proxy's own answer: its cookies are not the origin's, so none of them reach the pipeline.
            var answer = head.head
            answer.headerFields[.setCookie] = nil
            let response = Response(
                head: answer,
                body: ResponseBody(expectedLength: Int64(length), source: BufferedBodySource(kept)),
                connectionID: connection.id, route: proxy, isFromProxy: true)
            let schemes = head.fields[values: .proxyAuthenticate].map { $0.prefix { $0 != " " }.lowercased() }
            let bound = schemes.contains("ntlm") || schemes.contains("negotiate")
            let keeps = bound && ended && head.keepAlive && connection.isReusable
            throw Answer.challenged(response, keeping: keeps ? connection : nil)
        case 502:
            throw RouteUnreachable(error: ClientError(
                .connectFailed, stage: .transport,
                message: "The proxy \(proxy) could not reach \(authority) (502 Bad Gateway to CONNECT)"))
        default:
            throw Answer.refused(ClientError(
                .connectFailed, stage: .transport,
                message: "The proxy \(proxy) refused the tunnel to \(authority) (\(head.status.code) to CONNECT)"))
        }
    }

    /// Reads the final answer's head and, for a 407, its body (`nil` when it was too big to keep) and whether
    /// the body was read to its end.
    private static func readAnswer(
        on connection: Connection
    ) async throws -> (HTTP1ResponseHead, [[UInt8]]?, ended: Bool) {
        var head: HTTP1ResponseHead?
        var chunks: [[UInt8]]? = []
        var size = 0
        while true {
            let count = try await connection.read()
            do {
                try connection.parse(count)
            } catch let error as ClientError where error.code == .emptyResponse {
                // Part of opening the connection: a proxy that closes without answering CONNECT is unreachable.
                throw ClientError(.connectFailed, stage: .transport,
                                  message: "The proxy closed the connection without answering CONNECT")
            }
            var ended = false
            for event in connection.events {
                switch event {
                case .head(let interim) where interim.isInformational: continue
                case .head(let final): head = final
                case .body(let bytes):
                    size += bytes.count
                    chunks?.append(bytes)
                    if size > maxChallengeBodySize { chunks = nil }
                case .end: ended = true
                }
            }
            connection.events.removeAll(keepingCapacity: true)
            if let head, ended || head.status.code != 407 || chunks == nil { return (head, chunks, ended) }
            if count == 0 {
                throw ClientError(.connectFailed, stage: .transport, message: "The proxy closed the connection")
            }
        }
    }
}
