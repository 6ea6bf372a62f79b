import HTTPCore

/// A parsed response head with the framing and connection-reuse decisions taken from it.
struct HTTP1ResponseHead: Sendable {
    /// The status line and header fields (values trimmed, folded lines joined by a space, in wire order) as the
    /// one head the response carries to the caller; its version is always 1.x.
    var head: ResponseHead
    /// How the body is delimited.
    var framing: ResponseFraming
    /// Whether the connection may carry another request after this response ends.
    ///
    /// `false` when the server sent `Connection: close`; for HTTP/1.0 unless it sent `Connection: keep-alive`;
    /// for a close-delimited body; when `Transfer-Encoding` came with `Content-Length` or in an HTTP/1.0
    /// response (RFC 9112 §6.1, §6.3: possible smuggling, so never reuse); for 101 and a 2xx answer to
    /// `CONNECT` (the connection leaves HTTP); and, as ASIHTTPRequest did, when `Keep-Alive` says `max=M` with
    /// M ≤ 5. Always `false` for an interim head (the final head decides).
    var keepAlive: Bool
    /// `timeout=T` from a `Keep-Alive` header, in seconds.
    var keepAliveTimeout: Int?
    /// `max=M` from a `Keep-Alive` header.
    var keepAliveMax: Int?
    /// `true` for a 1xx head other than 101; the final head for the same request follows.
    var isInformational: Bool

    /// The version from the status line.
    var version: HTTPVersion { head.version }
    /// The status code and the reason phrase as sent (possibly empty).
    var status: HTTPResponse.Status { head.status }
    /// The header fields.
    var fields: HTTPFields { head.headerFields }
}
