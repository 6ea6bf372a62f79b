public import FoundationEssentials

/// Chooses how to reach a URL: directly or through a proxy (PAC files, environment variables, fixed proxies).
///
/// ## Implementation requirements
/// A resolver that cannot decide (a PAC file that fails to load) returns ``ProxyRoute/direct``, as
/// ASIHTTPRequest does, and logs why.
public protocol ProxyResolver: Sendable {
    /// Returns the route for a URL.
    /// - Parameter url: The request URL.
    /// - Returns: The route.
    /// - Throws: `CancellationError` only.
    func route(for url: URL) async throws -> ProxyRoute
}
