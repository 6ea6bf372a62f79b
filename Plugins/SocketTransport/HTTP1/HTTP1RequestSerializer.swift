import HTTPCore

/// Turns a request head and body chunks into HTTP/1.1 wire bytes.
///
/// The serializer owns the framing fields: it writes `Content-Length` or `Transfer-Encoding: chunked` from a
/// ``BodyFraming`` and drops any such field the caller supplied. It also drops `Proxy-Authorization` unless told
/// the request goes to a proxy, so that the field never reaches an origin. Everything else is sent as given, in order.
/// No byte that could end a line reaches the wire from caller data: the method and field names are tokens
/// (`HTTPTypes` checks them), and the target, the `Host` value and every field value are checked here.
enum HTTP1RequestSerializer {
    /// The chunk that ends a chunked body without trailers: `0\r\n\r\n`.
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)
    /// What follows the data of every chunk: `\r\n`.
    static let chunkSuffix: [UInt8] = HTTP1Syntax.crlf

    /// Serialises the request line, the header fields and the empty line that ends the head.
    ///
    /// `Host` comes first unless `fields` already holds a `Host` field, which is then sent where it stands.
    /// The framing field for `framing` comes last. A `Proxy-Authorization` field in `fields` is dropped unless
    /// `keepsProxyAuthorization` is set (only for a request to a plain HTTP proxy), so that it never reaches an
    /// origin.
    /// - Parameters:
    ///   - method: The request method.
    ///   - target: The request target: origin form (`/path?query`), absolute form for a proxy, or authority
    ///     form (`host:port`) for `CONNECT`. See ``originForm(of:)`` and ``absoluteForm(of:)``.
    ///   - version: The version for the request line, normally HTTP/1.1.
    ///   - host: The `Host` value, for example `example.com:8080`; see ``hostFieldValue(for:)``.
    ///   - fields: Header fields to send as given; `Content-Length` and `Transfer-Encoding` among them are dropped.
    ///   - framing: How the body is delimited.
    ///   - keepsProxyAuthorization: Whether a `Proxy-Authorization` field in `fields` is sent; `false` (the
    ///     default) drops it.
    /// - Returns: The head's bytes.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidRequest`` when the target, host or a field value
    ///   contains a control character such as CR or LF (header injection), or the target is empty.
    static func head(
        method: HTTPRequest.Method,
        target: String,
        version: HTTPVersion,
        host: String,
        fields: HTTPFields,
        framing: BodyFraming,
        keepsProxyAuthorization: Bool = false
    ) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + target.utf8.count + host.utf8.count)
        try appendHead(to: &out, method: method, target: target, version: version, host: host, fields: fields,
                       framing: framing, keepsProxyAuthorization: keepsProxyAuthorization)
        return out
    }

    /// Checks what ``head(method:target:version:host:fields:framing:keepsProxyAuthorization:)`` checks, without
    /// building the head: a request can be refused before a connection is taken for it, and its head appended
    /// later to the connection's reused buffer.
    /// - Throws: The ``ClientError`` the head would throw, with the same message.
    static func validate(target: String, host: String, fields: HTTPFields, keepsProxyAuthorization: Bool) throws {
        try checkTarget(target)
        try checkValue(host) { "Host value" }
        for field in fields where !isDropped(field.name, keepsProxyAuthorization: keepsProxyAuthorization) {
            // A Cookie line joins its fields with "; ", which adds no control byte: each field is checked alone.
            let what = field.name == .cookie ? "Cookie" : field.name.rawName
            try field.withUnsafeBytesOfValue { value in try checkValue(value) { "value of header field \(what)" } }
        }
    }

    /// Appends the head ``head(method:target:version:host:fields:framing:keepsProxyAuthorization:)`` returns to
    /// `out`; on a throw `out` holds part of it.
    /// - Throws: As ``head(method:target:version:host:fields:framing:keepsProxyAuthorization:)``.
    static func appendHead(
        to out: inout [UInt8],
        method: HTTPRequest.Method,
        target: String,
        version: HTTPVersion,
        host: String,
        fields: HTTPFields,
        framing: BodyFraming,
        keepsProxyAuthorization: Bool = false
    ) throws {
        try checkTarget(target)
        try checkValue(host) { "Host value" }
        out.append(contentsOf: method.rawValue.utf8)
        out.append(HTTP1Syntax.sp)
        out.append(contentsOf: target.utf8)
        appendVersion(version, to: &out)

        var hasHost = false
        for field in fields where isHost(field.name) {
            hasHost = true
            break
        }
        if !hasHost {
            out.append(contentsOf: "Host: ".utf8)
            out.append(contentsOf: host.utf8)
            out.append(contentsOf: HTTP1Syntax.crlf)
        }
        var wroteCookie = false
        for field in fields where !isDropped(field.name, keepsProxyAuthorization: keepsProxyAuthorization) {
            if field.name == .cookie {
                // HTTPFields keeps one field per cookie; RFC 6265 §5.4 wants a single `Cookie` line, joined by "; ".
                // The values are appended one by one: no joined string, no interpolated line.
                guard !wroteCookie else { continue }
                wroteCookie = true
                out.append(contentsOf: field.name.rawName.utf8)
                out.append(HTTP1Syntax.colon)
                out.append(HTTP1Syntax.sp)
                var first = true
                for cookie in fields where cookie.name == .cookie {
                    if !first { out.append(contentsOf: "; ".utf8) }
                    first = false
                    try cookie.withUnsafeBytesOfValue { value in
                        try checkValue(value) { "value of header field Cookie" }
                        out.append(contentsOf: value)
                    }
                }
                out.append(contentsOf: HTTP1Syntax.crlf)
                continue
            }
            out.append(contentsOf: field.name.rawName.utf8)
            out.append(HTTP1Syntax.colon)
            out.append(HTTP1Syntax.sp)
            try field.withUnsafeBytesOfValue { value in
                try checkValue(value) { "value of header field \(field.name.rawName)" }
                out.append(contentsOf: value)
            }
            out.append(contentsOf: HTTP1Syntax.crlf)
        }
        switch framing {
        case .none:
            break
        case .contentLength(let length):
            precondition(length >= 0, "negative Content-Length")
            out.append(contentsOf: "Content-Length: ".utf8)
            out.append(contentsOf: String(length).utf8)
            out.append(contentsOf: HTTP1Syntax.crlf)
        case .chunked:
            out.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
        }
        out.append(contentsOf: HTTP1Syntax.crlf)
    }

    /// Frames one chunk of a chunked body: the size in hex, CRLF, the bytes, CRLF.
    ///
    /// An empty input yields no bytes, because a zero-size chunk would end the body; send ``lastChunk`` for that.
    /// - Parameter bytes: The chunk's data.
    /// - Returns: The framed chunk.
    static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        var out = chunkPrefix(count: bytes.count)
        out.reserveCapacity(out.count + bytes.count + 2)
        out.append(contentsOf: bytes)
        out.append(contentsOf: HTTP1Syntax.crlf)
        return out
    }

    /// The line that starts a chunk of `count` bytes (`"<hex>\r\n"`), for writing the data without copying it:
    /// send the prefix, the data, then ``chunkSuffix`` (for example with one `writev`).
    /// - Parameter count: The chunk's size in bytes; must be greater than 0.
    /// - Returns: The size line.
    static func chunkPrefix(count: Int) -> [UInt8] {
        precondition(count > 0, "a chunk of 0 bytes would end the body")
        var out = Array(String(count, radix: 16, uppercase: true).utf8)
        out.append(contentsOf: HTTP1Syntax.crlf)
        return out
    }

    private static func appendVersion(_ version: HTTPVersion, to out: inout [UInt8]) {
        if version == .http1_1 {
            out.append(contentsOf: " HTTP/1.1\r\n".utf8)
        } else {
            out.append(contentsOf: " HTTP/\(version.major).\(version.minor)\r\n".utf8)
        }
    }

    @inline(__always)
    private static func isHost(_ name: HTTPField.Name) -> Bool {
        let canonical = name.canonicalName
        return canonical.utf8.count == 4 && canonical == "host"
    }

    /// `Content-Length` or `Transfer-Encoding`, which the serializer writes itself, or `Proxy-Authorization`
    /// unless it is kept. One switch on the name's length, so other fields cost one comparison.
    @inline(__always)
    private static func isDropped(_ name: HTTPField.Name, keepsProxyAuthorization: Bool) -> Bool {
        let canonical = name.canonicalName
        switch canonical.utf8.count {
        case 14: return canonical == "content-length"
        case 17: return canonical == "transfer-encoding"
        case 19: return !keepsProxyAuthorization && canonical == "proxy-authorization"
        default: return false
        }
    }

    private static func checkTarget(_ target: String) throws {
        guard !target.isEmpty else {
            throw ClientError(.invalidRequest, message: "the request target is empty")
        }
        for byte in target.utf8 where byte <= HTTP1Syntax.sp || byte >= 0x7F {
            throw ClientError(
                .invalidRequest,
                message: "the request target contains a space, control or non-ASCII byte (0x\(hex(byte)))"
            )
        }
    }

    private static func checkValue(_ value: String, what: () -> String) throws {
        var value = value
        try value.withUTF8 { try checkValue($0, what: what) }
    }

    @inline(__always)
    private static func checkValue(_ value: UnsafeBufferPointer<UInt8>, what: () -> String) throws {
        for byte in value where (byte < HTTP1Syntax.sp && byte != HTTP1Syntax.htab) || byte == 0x7F {
            throw ClientError(.invalidRequest, message: "the \(what()) contains a control byte (0x\(hex(byte)))")
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 16 ? "0" + digits : digits
    }
}
