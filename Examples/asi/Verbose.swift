import FoundationEssentials
import HTTPCore
import HTTPPipeline

/// `-v`: the request and response heads on stderr, as curl prints them, with credentials and cookie values
/// replaced by `<redacted>`. (The library's own debug log goes to stderr through swift-log.)
enum Verbose {
    /// Fields whose values are never printed.
    static let secretFields: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie, .setCookie]

    /// Prints `> METHOD target` and the header fields set on the request (the library adds more on the way).
    static func printRequest(_ request: Request, if enabled: Bool) {
        guard enabled else { return }
        var target = request.url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        var text = "> \(request.method.rawValue) \(target) \(request.options.httpVersion)\r\n"
        text += "> Host: \(request.url.host() ?? "")\(request.url.port.map { ":\($0)" } ?? "")\r\n"
        for field in request.headerFields { text += "> \(describe(field))\r\n" }
        Output.writeError(text + ">\r\n")
    }

    /// Prints `< status line` and the final response's header fields.
    static func printResponse(_ head: ResponseHead, if enabled: Bool) {
        guard enabled else { return }
        var text = "< \(head.statusLine)\r\n"
        for field in head.headerFields { text += "< \(describe(field))\r\n" }
        Output.writeError(text + "<\r\n")
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

    private static func describe(_ field: HTTPField) -> String {
        "\(field.name.rawName): \(secretFields.contains(field.name) ? "<redacted>" : field.value)"
    }
}
