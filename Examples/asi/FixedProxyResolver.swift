import FoundationEssentials
import HTTPCore

/// `-x`: every request goes through one proxy.
struct FixedProxyResolver: ProxyResolver {
    /// The proxy.
    let route: ProxyRoute

    /// The proxy, for every URL.
    /// - Parameter url: The request URL.
    /// - Returns: The one route.
    func routes(for url: URL) -> [ProxyRoute] { [route] }
}
