import FoundationEssentials
import HTTPCore

/// Sends every URL through one proxy: `-x`.
struct FixedProxyResolver: ProxyResolver {
    let route: ProxyRoute

    func routes(for url: URL) async throws -> [ProxyRoute] { [route] }
}
