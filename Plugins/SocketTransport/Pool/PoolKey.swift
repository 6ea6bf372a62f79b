import HTTPCore

/// What makes two connections interchangeable: scheme, host, port, for `https` the TLS options, and the proxy
/// route the connection goes through.
///
/// Keying on the whole ``TLSOptions`` keeps a connection made without certificate validation (or with a client
/// certificate) away from requests that did not ask for that (ASIHTTPRequest bug #263). Keying on the route
/// (kind, proxy host and port, and the route's credential) keeps a connection made through one proxy away from
/// requests for another proxy or for a direct connection. A connection through an HTTP proxy is keyed on the
/// origin too, so it is not shared between origins even though the proxy would accept that: the per-host limit
/// then keeps meaning "per origin", and a proxy that ties state to a connection never sees two origins mixed.
struct PoolKey: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lower-cased.
    let scheme: String
    /// The origin's host, lower-cased, IPv6 literals without brackets.
    let host: String
    /// The origin's port, with the scheme's default filled in.
    let port: Int
    /// The TLS options for `https`; `nil` for `http`.
    let tls: TLSOptions?
    /// The proxy the connection goes through; `nil` for a direct connection (kept optional, not
    /// ``ProxyRoute/direct``, so that direct keys hash as cheaply as before routes existed).
    let proxy: ProxyRoute?
    /// For a `CONNECT` tunnel, the `Proxy-Authorization` it was opened with: a tunnel authenticated for one user is
    /// never reused by a request that brought another answer, or none. Kept in memory only, never in
    /// ``description``.
    let tunnelAuthorization: String?
    /// Whether an `http` origin is reached through a `CONNECT` tunnel too (``RequestOptions/tunnelsThroughProxy``,
    /// curl's `-p`) rather than in absolute form.
    let forcesTunnel: Bool
    /// Whether TLS to the origin offers `http/1.1` alone although multiplexed protocols are configured: the
    /// connection carries a connection-bound handshake (NTLM), which HTTP/2 cannot carry (curl falls back the
    /// same way).
    var offersOnlyHTTP1: Bool { didSet { fingerprint = fingerprintOfFields() } }
    /// The hash of every field above, taken once: the pool looks a key up at each check-out and check-in, and
    /// hashing its strings and TLS options each time showed in the per-request profile.
    private var fingerprint = 0

    /// A key from its parts.
    init(
        scheme: String, host: String, port: Int, tls: TLSOptions? = nil, proxy: ProxyRoute? = nil,
        tunnelAuthorization: String? = nil, forcesTunnel: Bool = false, offersOnlyHTTP1: Bool = false
    ) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.tls = tls
        self.proxy = proxy
        self.tunnelAuthorization = tunnelAuthorization
        self.forcesTunnel = forcesTunnel
        self.offersOnlyHTTP1 = offersOnlyHTTP1
        fingerprint = fingerprintOfFields()
    }

    static func == (lhs: PoolKey, rhs: PoolKey) -> Bool {
        lhs.fingerprint == rhs.fingerprint && lhs.port == rhs.port && lhs.host == rhs.host
            && lhs.scheme == rhs.scheme && lhs.tls == rhs.tls && lhs.proxy == rhs.proxy
            && lhs.tunnelAuthorization == rhs.tunnelAuthorization && lhs.forcesTunnel == rhs.forcesTunnel
            && lhs.offersOnlyHTTP1 == rhs.offersOnlyHTTP1
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint)
    }

    private func fingerprintOfFields() -> Int {
        var hasher = Hasher()
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(tls)
        hasher.combine(proxy)
        hasher.combine(tunnelAuthorization)
        hasher.combine(forcesTunnel)
        hasher.combine(offersOnlyHTTP1)
        return hasher.finalize()
    }

    /// The route: ``ProxyRoute/direct`` or the proxy.
    var route: ProxyRoute { proxy ?? .direct }

    /// Whether the connection is a `CONNECT` tunnel through an HTTP or HTTPS proxy: to an `https` origin, or to an
    /// `http` one when the request asked for a tunnel.
    var isTunnel: Bool { (tls != nil || forcesTunnel) && speaksHTTPToProxy }

    /// Whether requests go to an HTTP or HTTPS proxy in absolute form (an `http` origin): the proxy answers them,
    /// so a `407` is the proxy's.
    var isForwarded: Bool { tls == nil && !forcesTunnel && speaksHTTPToProxy }

    /// Whether the route is a SOCKS proxy: the socket carries the origin's bytes once the handshake is done.
    var isSOCKS: Bool { proxy?.kind == .socks5 || proxy?.kind == .socks4a }

    private var speaksHTTPToProxy: Bool { proxy?.kind == .http || proxy?.kind == .https }

    /// The host the socket connects to: the proxy's, or the origin's for a direct connection.
    var connectHost: String { proxy?.host ?? host }

    /// The port the socket connects to: the proxy's, or the origin's for a direct connection.
    var connectPort: Int { proxy?.port ?? port }

    /// What the socket connects to, for error messages: the origin (`https://example.com:443`), or
    /// `the proxy http://proxy:3128 (for http://example.com:80)`.
    var peerDescription: String {
        guard let proxy else { return description }
        return "the proxy \(proxy) (for \(originDescription))"
    }

    /// For example `https://example.com:443`, or `http://example.com:80 via http://proxy:3128` (the route's
    /// credential is never shown).
    var description: String {
        guard let proxy else { return originDescription }
        return originDescription + " via " + proxy.description
    }

    private var originDescription: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
