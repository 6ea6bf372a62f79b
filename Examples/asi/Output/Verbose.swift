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
    /// (`Content-Length` or `Transfer-Encoding`).
    static func requestText(_ request: Request, context: RequestContext) -> String {
        var target = request.url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        var text = "> \(request.method.rawValue) \(target) \(request.options.httpVersion)\r\n"
        text += "> Host: \(request.url.host() ?? "")\(request.url.port.map { ":\($0)" } ?? "")\r\n"
        for field in request.headerFields { text += "> \(describe(field))\r\n" }
        if context.proxyAuthorization != nil, request.url.scheme?.lowercased() == "http",
            !request.options.tunnelsThroughProxy, request.headerFields[.proxyAuthorization] == nil
        {
            text += "> Proxy-Authorization: <redacted>\r\n"  // the answer to a 407, which the transport adds
        }
        if request.headerFields[.contentLength] == nil && request.headerFields[.transferEncoding] == nil {
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
    static func responseText(statusLine: String, headerFields: HTTPFields) -> String {
        var text = "< \(statusLine)\r\n"
        for field in headerFields { text += "< \(describe(field))\r\n" }
        return text + "<\r\n"
    }

    /// Prints the final response's head when it did not come from the network as it is (a cache hit, a stored
    /// entry a 304 confirmed, a fallback, or the 504 of `dont-load`): ``VerboseExchange`` printed every head that did.
    static func printResponse(_ head: ResponseHead, info: ExchangeInfo, if enabled: Bool) {
        guard enabled, info.isFromCache || info.cacheOutcome == .notCached else { return }
        Output.writeError(responseText(statusLine: head.statusLine, headerFields: head.headerFields))
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

    private static func describe(_ field: HTTPField) -> String {
        "\(field.name.rawName): \(secretFields.contains(field.name) ? "<redacted>" : field.value)"
    }
}
