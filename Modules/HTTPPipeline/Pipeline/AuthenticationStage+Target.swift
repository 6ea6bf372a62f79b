import FoundationEssentials
import HTTPCore

/// The request as an ``AuthenticationNegotiation`` sees it: Digest's `uri` is the origin-form `/path?query` even
/// through a plain HTTP proxy (as curl and browsers sign it; the origin receives origin-form from the proxy and
/// checks `uri` against it, and squid accepts it for `Proxy-Authorization`), `host:port` for a `CONNECT` tunnel.
extension AuthenticationStage {
    /// The view of `request` for a negotiation.
    /// - Parameters:
    ///   - request: The hop about to be sent.
    ///   - route: The route the last response came over, if known.
    ///   - forProxy: Whether the value is for the proxy: an `https` URL through a proxy (any URL when the request
    ///     tunnels, ``RequestOptions/tunnelsThroughProxy``) is then the tunnel's `CONNECT host:port`.
    /// - Returns: Method, request-target and, when in memory, the body.
    static func view(of request: Request, route: ProxyRoute?, forProxy: Bool = false) -> AuthenticatedRequest {
        let url = request.url
        let scheme = url.scheme?.lowercased() ?? "http"
        let body: [UInt8]?
        switch request.body?.content {
        case nil: body = []
        case .bytes(let bytes): body = bytes
        default: body = nil
        }
        let tunnels = scheme == "https" || request.options.tunnelsThroughProxy
        if let route, route.kind == .http || route.kind == .https, tunnels, forProxy {
            return AuthenticatedRequest(method: "CONNECT", target: authority(of: url), body: [])
        }
        if request.method == .options, url.path(percentEncoded: true) == "*" {
            return AuthenticatedRequest(method: "OPTIONS", target: "*", body: body)
        }
        return AuthenticatedRequest(method: request.method.rawValue, target: originForm(of: url), body: body)
    }

    static func originForm(of url: URL) -> String {
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        return target
    }

    private static func authority(of url: URL) -> String {
        hostText(of: url) + ":\(url.effectivePort)"
    }

    private static func hostText(of url: URL) -> String {
        let host = url.host(percentEncoded: true) ?? ""
        return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
