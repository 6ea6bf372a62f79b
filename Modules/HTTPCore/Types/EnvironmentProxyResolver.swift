public import FoundationEssentials

/// Routes from the proxy environment variables, with curl's rules: Linux's "system proxy settings".
///
/// - `http_proxy` for `http` URLs, in lower case only: a CGI program gets a request's `Proxy:` field as
///   `HTTP_PROXY`, so the upper-case name is never read ("httpoxy").
/// - `https_proxy`, then `HTTPS_PROXY`, for `https` URLs; `ws_proxy`/`WS_PROXY` and `wss_proxy`/`WSS_PROXY`
///   for WebSocket URLs, falling back to the `http` and `https` proxies.
/// - `all_proxy`, then `ALL_PROXY`, when the scheme has none.
/// - `no_proxy`, then `NO_PROXY`: the hosts that go directly (see ``NoProxyList``); `*` turns the proxy off.
///
/// An empty variable counts as unset. A value is a proxy URL as ``ProxyRoute/init(proxyURL:)`` reads it (no
/// scheme means `http://`; `https`, `socks4`, `socks4a`, `socks5`, `socks5h`); a `user:password@` in it becomes
/// the route's credential, percent-decoded, and is never logged or shown. The environment is read once, when the
/// resolver is made: later changes to the process environment do not count.
///
/// ```swift
/// let transport = POSIXTransport(configuration: .init(proxyResolver: try EnvironmentProxyResolver()))
/// ```
public struct EnvironmentProxyResolver: ProxyResolver, CustomStringConvertible {
    /// The proxy per URL scheme (`http`, `https`, `ws`, `wss`), from `<scheme>_proxy`.
    private let byScheme: [String: ProxyRoute]
    /// From `all_proxy`, for schemes without their own.
    private let fallback: ProxyRoute?
    /// The hosts that go directly.
    public let noProxy: NoProxyList

    /// Reads the proxy variables.
    /// - Parameters:
    ///   - environment: The variables; the process environment by default.
    ///   - noProxy: A list to use instead of `no_proxy`/`NO_PROXY` (curl's `--noproxy`); `nil` reads them.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` when a variable holds a proxy URL
    ///   that cannot be used (unknown scheme, no host, bad port), naming the variable but not its credential.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, noProxy: NoProxyList? = nil)
        throws
    {
        func value(_ name: String) -> String? {
            guard let value = environment[name], !ProxyText.trimmed(value).isEmpty else { return nil }
            return value
        }
        func route(_ names: [String]) throws -> ProxyRoute? {
            for name in names {
                guard let text = value(name) else { continue }
                do {
                    return try ProxyRoute(proxyURL: text)
                } catch let error as ClientError {
                    throw ClientError(.invalidConfiguration, message: "\(name): \(error.message)")
                }
            }
            return nil
        }
        var byScheme: [String: ProxyRoute] = [:]
        for scheme in ["http", "https", "ws", "wss"] {
            let lower = scheme + "_proxy"
            byScheme[scheme] = try route(scheme == "http" ? [lower] : [lower, lower.uppercased()])
        }
        self.byScheme = byScheme
        fallback = try route(["all_proxy", "ALL_PROXY"])
        self.noProxy = noProxy ?? NoProxyList(environment: environment)
    }

    /// The proxy for `url`, or `[.direct]` when its host is in ``noProxy`` or no variable names a proxy for its
    /// scheme.
    /// - Parameter url: The request URL.
    /// - Returns: One route.
    public func routes(for url: URL) -> [ProxyRoute] {
        [route(for: url)]
    }

    /// The one route for `url`.
    /// - Parameter url: The request URL.
    /// - Returns: The proxy, or ``ProxyRoute/direct``.
    public func route(for url: URL) -> ProxyRoute {
        guard let scheme = url.scheme?.lowercased(), !noProxy.matches(url) else { return .direct }
        let own = byScheme[scheme] ?? (scheme == "wss" ? byScheme["https"] : scheme == "ws" ? byScheme["http"] : nil)
        return own ?? fallback ?? .direct
    }

    /// Whether no variable names a proxy: every request goes directly.
    public var isEmpty: Bool { byScheme.isEmpty && fallback == nil }

    /// The proxies by scheme and the `no_proxy` list, never a credential.
    public var description: String {
        let proxies = byScheme.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + (fallback.map { ["all=\($0)"] } ?? [])
        return "EnvironmentProxyResolver(\(proxies.joined(separator: ", ")); no_proxy=\(noProxy))"
    }
}
