import FoundationEssentials
import HTTPCore

extension HTTP1RequestSerializer {
    /// The origin-form request target for `url`: its path (`/` when empty), then `?` and the query when the
    /// URL has one, percent-encoded exactly as in the URL. The fragment and user info are never sent.
    /// - Parameter url: An absolute `http` or `https` URL.
    /// - Returns: For example `/search?q=a%20b`.
    static func originForm(of url: URL) -> String {
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) {
            target += "?"
            target += query
        }
        return target
    }

    /// The absolute-form request target for a request sent through an HTTP proxy: scheme, host, the port when
    /// the URL names one, then the origin form. User info and fragment are left out.
    /// - Parameter url: An absolute `http` URL.
    /// - Returns: For example `http://example.com:8080/path?q`.
    static func absoluteForm(of url: URL) -> String {
        (url.scheme?.lowercased() ?? "http") + "://" + hostFieldValue(for: url) + originForm(of: url)
    }

    /// The authority-form target for `CONNECT`: host and port, with the scheme's default port filled in.
    /// - Parameter url: An absolute `http` or `https` URL.
    /// - Returns: For example `example.com:443` or `[::1]:8443`.
    static func authorityForm(of url: URL) -> String {
        let port = url.port ?? defaultPort(forScheme: url.scheme)
        return bracketedHost(of: url) + ":" + String(port)
    }

    /// The `Host` value for `url`: the host (IPv6 literals in brackets), then `:port` unless the port is
    /// absent or the scheme's default.
    /// - Parameter url: An absolute URL.
    /// - Returns: For example `example.com` or `[::1]:8080`.
    static func hostFieldValue(for url: URL) -> String {
        hostFieldValue(encodedHost: url.host(percentEncoded: true) ?? "", explicitPort: url.port,
                       defaultPort: defaultPort(forScheme: url.scheme))
    }

    /// The `Host` value from a URL's parts already taken apart (see ``hostFieldValue(for:)``).
    /// - Parameters:
    ///   - encodedHost: The host as percent-encoded in the URL; an IPv6 literal with or without brackets.
    ///   - explicitPort: The port the URL names, if any.
    ///   - defaultPort: The scheme's default port.
    /// - Returns: For example `example.com` or `[::1]:8080`.
    static func hostFieldValue(encodedHost: String, explicitPort: Int?, defaultPort: Int) -> String {
        let host = bracketed(encodedHost)
        guard let explicitPort, explicitPort != defaultPort else { return host }
        return host + ":" + String(explicitPort)
    }

    /// 443 for `https`, otherwise 80.
    /// - Parameter scheme: The URL scheme, in any case.
    /// - Returns: The default port.
    static func defaultPort(forScheme scheme: String?) -> Int {
        URL.defaultPort(forScheme: scheme)
    }

    private static func bracketedHost(of url: URL) -> String {
        bracketed(url.host(percentEncoded: true) ?? "")
    }

    /// An IPv6 literal in brackets; any other host as it is. Scans UTF-8 bytes: `String.contains(_:)` with a
    /// `Character` costs several times more, and this runs for every request.
    private static func bracketed(_ host: String) -> String {
        let isIPv6 = host.utf8.contains(UInt8(ascii: ":")) && host.utf8.first != UInt8(ascii: "[")
        return isIPv6 ? "[" + host + "]" : host
    }
}
