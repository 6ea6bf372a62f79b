/// A `Proxy-Authorization` value and the proxy it is for, handed by the pipeline to the transport in
/// ``RequestContext/proxyAuthorization`` after a 407 challenge.
///
/// The transport sends the value only to that proxy: in the request to a plain HTTP proxy, or in the `CONNECT`
/// request of a tunnel, never to an origin or down a tunnel. The `description` never shows the value.
public struct ProxyAuthorization: Sendable, Hashable, CustomStringConvertible {
    /// The proxy the value is for; only its kind, host and port count.
    public var proxy: ProxyRoute
    /// The `Proxy-Authorization` field value, for example `Basic dXNlcjpwYXNz`.
    public var value: String

    /// Creates an authorization for a proxy.
    /// - Parameters:
    ///   - proxy: The proxy the value is for.
    ///   - value: The field value.
    public init(proxy: ProxyRoute, value: String) {
        self.proxy = proxy
        self.value = value
    }

    /// Whether the value may be sent over `route`.
    /// - Parameter route: The route the transport is using.
    /// - Returns: `true` when the route goes through the same proxy.
    public func applies(to route: ProxyRoute) -> Bool {
        !route.isDirect && proxy.isSameProxy(as: route)
    }

    /// The proxy, never the value.
    public var description: String { "ProxyAuthorization(\(proxy): <redacted>)" }
}
