public import FoundationEssentials

/// Chooses how to reach a URL: an ordered list of routes, directly or through proxies (PAC files, environment
/// variables, fixed proxies).
///
/// The transport takes the resolver in its configuration, asks it once per request, and tries the routes in
/// order: when connecting through one fails (refused, unreachable, a connect timeout, a `502` answer to
/// `CONNECT`), it goes on with the next. Connections are pooled per route, so a request never reuses a
/// connection made for another route.
///
/// ## Implementation requirements
/// - Return at least one route. ``ProxyRoute/direct`` stands for "no proxy", also as the last entry of a list.
/// - A resolver that cannot decide (a PAC file that fails to load) returns `[.direct]`, as ASIHTTPRequest does,
///   and logs why.
/// - Be quick or cache: the transport awaits the answer before every request.
///
/// ## Implement a custom resolver
/// ```swift
/// struct OfficeProxy: ProxyResolver {
///     func routes(for url: URL) -> [ProxyRoute] {
///         url.host()?.hasSuffix(".internal") == true ? [.direct] : [.http(host: "proxy.office", port: 3128), .direct]
///     }
/// }
/// let transport = POSIXTransport(configuration: .init(proxyResolver: OfficeProxy()))
/// ```
public protocol ProxyResolver: PluginLifecycle {
    /// Returns the routes to try for a URL, in order.
    /// - Parameter url: The request URL.
    /// - Returns: One or more routes.
    /// - Throws: `CancellationError` only.
    func routes(for url: URL) async throws -> [ProxyRoute]
}
