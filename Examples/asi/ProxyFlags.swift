import ArgumentParser
import FoundationEssentials
import HTTPCore

/// The proxy flag: enough of curl's `-x` for an HTTP proxy (`[http://]host[:port]`, port 1080 by default as in
/// curl). The proxies issue owns the rest (HTTPS and SOCKS proxies, `--proxy-user`, `--noproxy`).
struct ProxyFlags: ParsableArguments {
    @Option(
        name: [.customShort("x"), .customLong("proxy")],
        help: ArgumentHelp("Use this HTTP proxy: [http://]host[:port].", valueName: "proxy"))
    var proxy: String?
}

extension ProxyFlags {
    /// The resolver for `-x`, or `nil` without it.
    /// - Throws: ``TransferFailure`` 5 (curl's "couldn't resolve proxy") for a proxy that is not `http://host[:port]`.
    func resolver() throws(TransferFailure) -> (any ProxyResolver)? {
        guard var text = proxy, !text.isEmpty else { return nil }
        if text.lowercased().hasPrefix("http://") { text.removeFirst(7) }
        if let slash = text.firstIndex(of: "/") { text = String(text[..<slash]) }
        var host = text
        var port = 1080
        if let colon = text.lastIndex(of: ":"), !text.hasSuffix("]") {
            guard let number = Int(text[text.index(after: colon)...]), (1...65535).contains(number) else {
                throw TransferFailure(5, "Bad proxy port in \(text)")
            }
            host = String(text[..<colon])
            port = number
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !text.contains("://") else { throw TransferFailure(5, "Unsupported proxy \(proxy ?? "")") }
        return FixedProxy(route: .http(host: host, port: port))
    }
}

/// Every request goes through one proxy route.
private struct FixedProxy: ProxyResolver {
    let route: ProxyRoute

    func routes(for url: URL) async throws -> [ProxyRoute] { [route] }
}
