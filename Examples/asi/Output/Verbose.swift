import FoundationEssentials
import HTTPCore
import HTTPPipeline

/// `-v`: the request and response heads on stderr, as curl prints them, with credentials and cookie values
/// replaced by `<redacted>`. ``VerboseExchange`` prints every hop the network sees; this prints the rest (the
/// cache's part, the average bandwidth). (The library's own debug log goes to stderr through swift-log.)
enum Verbose {
    /// Fields whose values are never printed.
    static let secretFields: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie, .setCookie]

    /// The `> ` lines of a request as it goes to the transport: `METHOD target version`, `Host`, its header
    /// fields, and what the transport adds: a 407's answer to an HTTP proxy and the framing field
    /// (`Content-Length` or `Transfer-Encoding`). `version` is the protocol the request went over (default: the one
    /// it asked for); over HTTP/2 the line reads `GET /path HTTP/2` and no framing field is added, as curl prints it.
    static func requestText(
        _ request: Request, context: RequestContext, version: HTTPVersion? = nil
    ) -> String {
        let version = version ?? request.options.httpVersion
        var target = request.url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        var text = "> \(request.method.rawValue) \(target) \(version)\r\n"
        text += "> Host: \(request.url.host() ?? "")\(request.url.port.map { ":\($0)" } ?? "")\r\n"
        // Over HTTP/2 the names go lower-cased (RFC 9113 §8.2.1), and curl prints them so.
        for field in request.headerFields { text += "> \(describe(field, lowerCased: version >= .http2))\r\n" }
        if context.proxyAuthorization != nil, request.url.scheme?.lowercased() == "http",
            !request.options.tunnelsThroughProxy, request.headerFields[.proxyAuthorization] == nil
        {
            text += "> Proxy-Authorization: <redacted>\r\n"  // the answer to a 407, which the transport adds
        }
        if version < .http2, request.headerFields[.contentLength] == nil,
            request.headerFields[.transferEncoding] == nil
        {
            // What the transport adds (SocketTransport's framing rule).
            if let body = request.body {
                text += body.length.map { "> Content-Length: \($0)\r\n" } ?? "> Transfer-Encoding: chunked\r\n"
            } else if [.post, .put, .patch].contains(request.method) {
                text += "> Content-Length: 0\r\n"
            }
        }
        return text + ">\r\n"
    }

    /// The `< ` lines of a response head: the status line and the header fields.
    static func responseText(_ head: ResponseHead) -> String {
        var text = "< \(statusLine(head))\r\n"
        for field in head.headerFields { text += "< \(describe(field))\r\n" }
        return text + "<\r\n"
    }

    /// The status line as curl prints it: `HTTP/1.1 200 OK`, and `HTTP/2 200 ` over HTTP/2, which carries no reason
    /// phrase.
    static func statusLine(_ head: ResponseHead) -> String {
        head.version >= .http2 ? "\(head.version) \(head.status.code) " : head.statusLine
    }

    /// Prints the final response's head when it did not come from the network as it is (a cache hit, a stored
    /// entry a 304 confirmed, a fallback, or the 504 of `dont-load`): ``VerboseExchange`` printed every head that did.
    static func printResponse(_ head: ResponseHead, info: ExchangeInfo, if enabled: Bool) {
        guard enabled, info.isFromCache || info.cacheOutcome == .notCached else { return }
        Output.writeError(responseText(head))
    }

    /// Prints the client's average bandwidth at the end of the run (ASIHTTPRequest's
    /// `averageBandwidthUsedPerSecond`: the mean of the last five one-second windows, 0 for a run under a second).
    static func printAverageBandwidth(_ bytesPerSecond: Int, if enabled: Bool) {
        guard enabled else { return }
        Output.writeError("* Average bandwidth: \(bytesPerSecond) bytes/s over the last 5 seconds\n")
    }

    /// Prints `* cache: hit`, `miss`, `revalidated (304)`, `fallback` or `not cached` when the request used a
    /// cache (`--cache`).
    static func printCacheOutcome(_ info: ExchangeInfo, if enabled: Bool) {
        guard enabled, let outcome = info.cacheOutcome else { return }
        Output.writeError("* cache: \(outcome)\r\n")
    }

    /// The URL without its user and password, for `* ` lines.
    static func redacted(_ url: URL) -> String {
        url.removingUserInfo()?.absoluteString ?? "<url>"
    }

    private static func describe(_ field: HTTPField, lowerCased: Bool = false) -> String {
        let name = lowerCased ? field.name.canonicalName : field.name.rawName
        return "\(name): \(secretFields.contains(field.name) ? "<redacted>" : field.value)"
    }
}
