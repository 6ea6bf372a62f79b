import ArgumentParser
import FoundationEssentials
import HTTPCore

/// The flags that decide where connections go.
struct ConnectionFlags: ParsableArguments {
    @Option(
        name: .customLong("resolve"),
        help: ArgumentHelp(
            "Connect to ADDR for HOST:PORT instead of resolving HOST (the URL and Host field stay as they are).",
            valueName: "host:port:addr"))
    var resolve: [String] = []

    @Option(
        name: [.customShort("x"), .customLong("proxy")],
        help: ArgumentHelp("Send every request through this HTTP proxy ([http://]host[:port], port 1080 by default).",
                           valueName: "proxy"))
    var proxy: String?

    /// The `-x` proxy as a resolver, or `nil` to connect directly.
    /// - Throws: `ValidationError` for a proxy that is not `[http://]host[:port]`.
    func proxyResolver() throws -> FixedProxyResolver? {
        guard var text = proxy else { return nil }
        if let scheme = text.firstRange(of: "://") {
            guard text[..<scheme.lowerBound].lowercased() == "http" else {
                throw ValidationError("Only http:// proxies are supported by -x, not \(text[..<scheme.lowerBound])://")
            }
            text = String(text[scheme.upperBound...])
        }
        if text.hasSuffix("/") { text.removeLast() }
        // user:password@ before the host: the proxy's credential (curl's -x http://user:pass@host:port), never
        // part of the host name, so it reaches neither the resolver nor an error message.
        var credential: Credential?
        if let at = text.lastIndex(of: "@") {
            let userInfo = text[..<at]
            text = String(text[text.index(after: at)...])
            if let parsed = URLComponents(string: "http://\(userInfo)@proxy/"), let user = parsed.user {
                credential = Credential(user: user, password: parsed.password ?? "")  // percent-decoded
            } else {
                let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                credential = Credential(user: String(parts[0]), password: parts.count > 1 ? String(parts[1]) : "")
            }
        }
        var host = text
        var port = 1080
        if let colon = text.lastIndex(of: ":"), !text.hasSuffix("]") {
            guard let value = Int(text[text.index(after: colon)...]), (1...65_535).contains(value) else {
                throw ValidationError("Bad proxy port in \(text)")
            }
            host = String(text[..<colon])
            port = value
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("No proxy host in -x \(text)") }
        return FixedProxyResolver(route: .http(host: host, port: port, credential: credential))
    }

    /// The `--resolve` entries as ``POSIXTransport/Configuration/addressOverrides``.
    /// - Throws: `ValidationError` for an entry that is not `HOST:PORT:ADDR`.
    func addressOverrides() throws -> [String: String] {
        var overrides: [String: String] = [:]
        for entry in resolve {
            let parts = entry.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65_535).contains(port),
                !parts[2].isEmpty
            else { throw ValidationError("--resolve wants HOST:PORT:ADDR, not \(entry)") }
            var address = String(parts[2])
            if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
            overrides["\(parts[0].lowercased()):\(port)"] = address
        }
        return overrides
    }
}
