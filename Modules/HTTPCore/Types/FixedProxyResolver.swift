public import FoundationEssentials

/// One proxy for every request, except the hosts of a no-proxy list: ASIHTTPRequest's manual settings
/// (`proxyHost`, `proxyPort`, `proxyType`) and curl's `-x` with `--noproxy`.
///
/// Give it to the transport (`POSIXTransport.Configuration.proxyResolver`) for every request of a client, or to one
/// request (``RequestOptions/proxyResolver``), as ASIHTTPRequest set the proxy on each request:
///
/// ```swift
/// var request = Request(url: URL(string: "http://example.com/")!)
/// request.options.proxyResolver = FixedProxyResolver(host: "192.168.0.1", port: 3128)
/// ```
public struct FixedProxyResolver: ProxyResolver, CustomStringConvertible {
    /// The proxy.
    public let route: ProxyRoute
    /// The hosts that go directly.
    public let noProxy: NoProxyList

    /// Sends every request through `route`, except to the hosts in `noProxy`.
    /// - Parameters:
    ///   - route: The proxy (``ProxyRoute/direct`` sends everything directly).
    ///   - noProxy: The hosts that go directly; none by default.
    public init(_ route: ProxyRoute, noProxy: NoProxyList = NoProxyList()) {
        self.route = route
        self.noProxy = noProxy
    }

    /// ASIHTTPRequest's `proxyHost`, `proxyPort` and `proxyType`: `.http` (`kCFProxyTypeHTTP`, and
    /// `kCFProxyTypeHTTPS`, which meant the proxy for `https` URLs: both are ``ProxyRoute/Kind/http``, with a
    /// `CONNECT` tunnel for `https` URLs), or `.socks5` (`kCFProxyTypeSOCKS`).
    /// - Parameters:
    ///   - host: The proxy's host (`proxyHost`).
    ///   - port: The proxy's port (`proxyPort`).
    ///   - kind: How the proxy is spoken to (`proxyType`); `.http` by default.
    ///   - credential: The proxy's credential, answered to its `407` first; `nil` by default.
    ///   - noProxy: The hosts that go directly; none by default.
    public init(
        host: String,
        port: Int,
        kind: ProxyRoute.Kind = .http,
        credential: Credential? = nil,
        noProxy: NoProxyList = NoProxyList()
    ) {
        self.init(ProxyRoute(kind: kind, host: host, port: port, credential: credential), noProxy: noProxy)
    }

    /// A proxy URL as curl's `-x` takes it (see ``ProxyRoute/init(proxyURL:)``).
    /// - Parameters:
    ///   - proxyURL: For example `socks5h://user:pass@127.0.0.1:1080`.
    ///   - noProxy: The hosts that go directly; none by default.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` for a proxy URL that cannot be used.
    public init(proxyURL: String, noProxy: NoProxyList = NoProxyList()) throws {
        self.init(try ProxyRoute(proxyURL: proxyURL), noProxy: noProxy)
    }

    /// The proxy, or `[.direct]` for a host in ``noProxy``.
    /// - Parameter url: The request URL.
    /// - Returns: One route.
    public func routes(for url: URL) -> [ProxyRoute] {
        [noProxy.matches(url) ? .direct : route]
    }

    /// The proxy (never its credential) and the no-proxy list.
    public var description: String {
        noProxy.isEmpty ? "FixedProxyResolver(\(route))" : "FixedProxyResolver(\(route); no_proxy=\(noProxy))"
    }
}
