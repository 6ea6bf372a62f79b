extension LoopbackResponse {
    /// A complete `HTTP/1.1` response with a body of known length.
    ///
    /// Adds `Content-Length` unless `headers` already have `Content-Length` or `Transfer-Encoding`, or the status
    /// is 1xx, 204 or 304. The body is a ``Action/body(_:)`` step, so `HEAD` requests get no body. When `headers`
    /// contain `Connection: close`, the server closes the connection afterwards.
    /// - Parameters:
    ///   - code: The status code.
    ///   - reason: The reason phrase; the standard one when `nil`.
    ///   - headers: Header fields, sent in this order and case.
    ///   - body: The body.
    /// - Returns: The response.
    public static func status(
        _ code: Int,
        reason: String? = nil,
        headers: [(String, String)] = [],
        body: [UInt8] = []
    ) -> LoopbackResponse {
        var fields = headers
        let names = Set(headers.map { $0.0.lowercased() })
        let bodyless = (100..<200).contains(code) || code == 204 || code == 304
        if !bodyless && !names.contains("content-length") && !names.contains("transfer-encoding") {
            fields.append(("Content-Length", String(body.count)))
        }
        let closes = headers.contains { $0.0.lowercased() == "connection" && $0.1.lowercased() == "close" }
        var actions: [Action] = [.write(head(code, reason: reason, headers: fields))]
        if !body.isEmpty { actions.append(.body(body)) }
        return LoopbackResponse(actions: actions, keepAlive: !closes)
    }

    /// `200 OK` with a UTF-8 text body (`Content-Type: text/plain; charset=utf-8`).
    /// - Parameter body: The text.
    /// - Returns: The response.
    public static func ok(_ body: String) -> LoopbackResponse {
        .status(200, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(body.utf8))
    }

    /// `200 OK` with a binary body.
    /// - Parameters:
    ///   - bytes: The body.
    ///   - contentType: The `Content-Type` value.
    /// - Returns: The response.
    public static func ok(bytes: [UInt8], contentType: String = "application/octet-stream") -> LoopbackResponse {
        .status(200, headers: [("Content-Type", contentType)], body: bytes)
    }

    /// A redirect with a `Location` header and an empty body.
    /// - Parameters:
    ///   - code: The status, such as 301, 302, 303, 307 or 308.
    ///   - location: The `Location` value, relative or absolute, sent as given.
    /// - Returns: The response.
    public static func redirect(_ code: Int, to location: String) -> LoopbackResponse {
        .status(code, headers: [("Location", location)])
    }

    /// A response with `Transfer-Encoding: chunked`, one chunk per element of `chunks`.
    ///
    /// Empty elements are skipped (an empty chunk would end the body). Each chunk is written separately, with an
    /// optional pause between them; `HEAD` requests get the head only.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Extra header fields, sent before `Transfer-Encoding`.
    ///   - chunks: The body pieces.
    ///   - trailers: Trailer fields after the last chunk.
    ///   - chunkDelay: A pause after each chunk but the last, if any.
    /// - Returns: The response.
    public static func chunked(
        status: Int = 200,
        headers: [(String, String)] = [],
        chunks: [[UInt8]],
        trailers: [(String, String)] = [],
        chunkDelay: Duration? = nil
    ) -> LoopbackResponse {
        var actions: [Action] = [
            .write(head(status, reason: nil, headers: headers + [("Transfer-Encoding", "chunked")]))
        ]
        let pieces = chunks.filter { !$0.isEmpty }
        for (index, chunk) in pieces.enumerated() {
            actions.append(.body(Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10]))
            if let chunkDelay, index < pieces.count - 1 { actions.append(.sleep(chunkDelay)) }
        }
        var end = "0\r\n"
        for (name, value) in trailers { end += "\(name): \(value)\r\n" }
        actions.append(.body(Array((end + "\r\n").utf8)))
        return LoopbackResponse(actions: actions)
    }

    /// Exact bytes, usually a whole hand-written response.
    /// - Parameters:
    ///   - bytes: What to write.
    ///   - thenClose: Whether to close the connection (FIN) afterwards; otherwise it stays open for more requests.
    /// - Returns: The response.
    public static func raw(_ bytes: [UInt8], thenClose: Bool = true) -> LoopbackResponse {
        LoopbackResponse(actions: thenClose ? [.write(bytes), .close] : [.write(bytes)])
    }

    /// Exact text as UTF-8, usually a whole hand-written response such as `"HTTP/1.1 200 OK\r\n\r\nhi"`.
    /// - Parameters:
    ///   - text: What to write.
    ///   - thenClose: Whether to close the connection (FIN) afterwards.
    /// - Returns: The response.
    public static func raw(_ text: String, thenClose: Bool = true) -> LoopbackResponse {
        .raw(Array(text.utf8), thenClose: thenClose)
    }

    /// A head announcing `announcedLength` body bytes, only `body` of them, then a close (or reset): a body cut
    /// short, which a client must report as an error.
    /// - Parameters:
    ///   - body: The bytes actually sent; fewer than `announcedLength`.
    ///   - announcedLength: The `Content-Length` sent.
    ///   - reset: Whether to end with a reset instead of a FIN.
    /// - Returns: The response.
    public static func truncated(body: [UInt8], announcedLength: Int, reset: Bool = false) -> LoopbackResponse {
        let head = head(200, reason: nil, headers: [("Content-Length", String(announcedLength))])
        return LoopbackResponse(actions: [.write(head), .body(body), reset ? .reset : .close])
    }

    /// A complete response whose body arrives in two parts with a pause between them.
    /// - Parameters:
    ///   - body: The whole body; `Content-Length` announces all of it.
    ///   - firstPart: How many body bytes to send before the pause.
    ///   - pause: The pause.
    /// - Returns: The response.
    public static func slowBody(_ body: [UInt8], firstPart: Int, pause: Duration) -> LoopbackResponse {
        let split = max(0, min(firstPart, body.count))
        let head = head(200, reason: nil, headers: [("Content-Length", String(body.count))])
        return LoopbackResponse(actions: [
            .write(head), .body(Array(body[..<split])), .sleep(pause), .body(Array(body[split...])),
        ])
    }

    /// Closes the connection (FIN) without writing anything.
    public static var closeWithoutResponse: LoopbackResponse { LoopbackResponse(actions: [.close]) }

    /// Resets the connection without writing anything; the client sees `ECONNRESET`.
    public static var resetWithoutResponse: LoopbackResponse { LoopbackResponse(actions: [.reset]) }

    /// Writes nothing and keeps the connection open until the client closes it or the server shuts down.
    public static var stall: LoopbackResponse { LoopbackResponse(actions: [.stall]) }

    /// The status line and header block, ending with the empty line.
    static func head(_ code: Int, reason: String?, headers: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(code) \(reason ?? standardReason(code))\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// The usual reason phrase for a status code, or `Status` for codes without one here.
    static func standardReason(_ code: Int) -> String {
        let reasons: [Int: String] = [
            100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
            204: "No Content", 206: "Partial Content", 300: "Multiple Choices", 301: "Moved Permanently",
            302: "Found", 303: "See Other", 304: "Not Modified", 305: "Use Proxy", 307: "Temporary Redirect",
            308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 407: "Proxy Authentication Required", 408: "Request Timeout",
            409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
            413: "Content Too Large", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
            417: "Expectation Failed", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
            500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
            504: "Gateway Timeout",
        ]
        return reasons[code] ?? "Status"
    }
}
