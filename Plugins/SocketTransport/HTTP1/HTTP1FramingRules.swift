import HTTPCore

/// Decides how a final response's body is delimited and whether its connection may be reused.
///
/// Framing (RFC 9112 §6.3), first match wins:
/// 1. A response to `HEAD`, a 204 or a 304 has no body, whatever its fields say.
/// 2. A 101, and a 2xx response to `CONNECT`, have no body and hand the connection to another protocol.
/// 3. `Transfer-Encoding` whose final coding is `chunked` → chunked; any other final coding → close-delimited.
///    `Content-Length` is then ignored. A `Transfer-Encoding` field with no codings at all counts as absent.
/// 4. `Content-Length` → that many bytes. Every value (also in a list such as `5, 5`, and across repeated
///    fields) must be the same non-negative decimal that fits in `Int64`.
/// 5. Otherwise the body runs until the connection closes.
///
/// Reuse (`keepAlive`): HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive` and
/// without `close`. Never after a close-delimited body or a 101/`CONNECT` tunnel. Never when
/// `Transfer-Encoding` came with `Content-Length` or in an HTTP/1.0 response: RFC 9112 §6.1 and §6.3 call such
/// framing faulty (a smuggling sign), so the body is read by `Transfer-Encoding` and the connection is closed.
/// As in ASIHTTPRequest, a `Keep-Alive: max=M` with M ≤ 5 also disables reuse; unlike ASIHTTPRequest, a
/// `Keep-Alive` without `max` does not.
enum HTTP1FramingRules {
    /// The outcome for one final head.
    struct Decision: Equatable {
        var framing: ResponseFraming
        var keepAlive: Bool
        var keepAliveTimeout: Int?
        var keepAliveMax: Int?
        /// `true` after a 101 or a 2xx answer to `CONNECT`: later bytes belong to another protocol.
        var leavesHTTP: Bool
    }

    /// Applies the rules to a final (non-1xx, or 101) head.
    /// - Parameters:
    ///   - version: The response's version.
    ///   - status: The response's status.
    ///   - fields: The response's header fields.
    ///   - requestMethod: The method of the request it answers.
    /// - Returns: The framing and reuse decision.
    /// - Throws: ``ClientError`` with ``ClientError/Code/protocolViolation`` when `Content-Length` decides the
    ///   framing but is malformed or contradicts itself.
    static func decide(
        version: HTTPVersion, status: HTTPResponse.Status, fields: HTTPFields, requestMethod: HTTPRequest.Method
    ) throws -> Decision {
        try decide(version: version, status: status, summary: FieldSummary(fields), requestMethod: requestMethod)
    }

    /// Applies the rules to a final head whose framing fields were already summarized, as the parser does while
    /// it reads them.
    /// - Parameters:
    ///   - version: The response's version.
    ///   - status: The response's status.
    ///   - summary: The framing-relevant fields of the head.
    ///   - requestMethod: The method of the request it answers.
    /// - Returns: The framing and reuse decision.
    /// - Throws: As ``decide(version:status:fields:requestMethod:)``.
    static func decide(
        version: HTTPVersion, status: HTTPResponse.Status, summary: FieldSummary, requestMethod: HTTPRequest.Method
    ) throws -> Decision {
        let code = status.code
        var decision = Decision(
            framing: .closeDelimited, keepAlive: true, keepAliveTimeout: summary.keepAliveTimeout,
            keepAliveMax: summary.keepAliveMax, leavesHTTP: false)

        if requestMethod == .head || code == 204 || code == 304 {
            decision.framing = .none
        } else if code == 101 || (requestMethod == .connect && code >= 200 && code < 300) {
            decision.framing = .none
            decision.leavesHTTP = true
        } else if summary.hasTransferEncoding {
            decision.framing = summary.finalCodingIsChunked ? .chunked : .closeDelimited
        } else if summary.hasContentLength {
            if let error = summary.contentLengthError { throw HTTP1Syntax.violation(error) }
            decision.framing = .contentLength(summary.contentLength)
        }

        if version.minor >= 1 {
            decision.keepAlive = !summary.connectionClose
        } else {
            decision.keepAlive = summary.connectionKeepAlive && !summary.connectionClose
        }
        let faultyFraming = summary.hasTransferEncoding && (summary.hasContentLength || version.minor == 0)
        if decision.framing == .closeDelimited || decision.leavesHTTP || faultyFraming {
            decision.keepAlive = false
        }
        if let max = summary.keepAliveMax, max <= 5 {
            decision.keepAlive = false
        }
        return decision
    }
}
