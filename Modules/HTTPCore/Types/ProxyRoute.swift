/// One way to reach an origin: directly, or through one proxy of a given kind.
///
/// A ``ProxyResolver`` answers an ordered list of routes (a PAC file's `PROXY a:8080; SOCKS5 b:1080; DIRECT`);
/// the transport tries them in that order. A route's ``credential`` is what the proxy's configuration brought
/// with it (`http://user:pass@proxy:3128` in `http_proxy`); the pipeline answers a 407 challenge with it first.
/// The `description` never shows the credential.
public struct ProxyRoute: Sendable, Hashable, CustomStringConvertible {
    /// How the proxy is spoken to.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case direct, http, https, socks4a, socks5
        }
        private let base: Base

        /// No proxy: connect to the origin itself.
        public static let direct = Kind(base: .direct)
        /// An HTTP proxy over plain TCP: absolute-form request targets for `http` URLs, a `CONNECT` tunnel for
        /// `https` URLs.
        public static let http = Kind(base: .http)
        /// An HTTP proxy reached over TLS (the proxy's own certificate is checked), then as ``http``.
        public static let https = Kind(base: .https)
        /// A SOCKS4a proxy: host names are resolved by the proxy, or, when the route's
        /// ``ProxyRoute/resolvesNamesRemotely`` is `false`, a plain SOCKS4 proxy given IPv4 addresses resolved
        /// locally (curl's `socks4://`).
        public static let socks4a = Kind(base: .socks4a)
        /// A SOCKS5 proxy (RFC 1928), with no authentication or a user name and password (RFC 1929).
        public static let socks5 = Kind(base: .socks5)

        /// The kind's stable name: `direct`, `http`, `https`, `socks4a` or `socks5`.
        public var description: String { base.rawValue }

        /// The URL scheme that names this kind of proxy in a proxy URL (`socks5h` is written for a SOCKS5 route
        /// that resolves names remotely, see ``ProxyRoute/resolvesNamesRemotely``).
        public var scheme: String { base.rawValue }
    }

    /// The fields of a route through a proxy.
    private struct Fields: Hashable, Sendable {
        var kind: Kind
        var host: String
        var port: Int
        var credential: Credential?
        var resolvesNamesRemotely: Bool
    }

    /// The route's fields, kept out of line: requests, responses and contexts carry a route on every call, and a
    /// direct route (the common case) is then a single `nil` word that copies without any reference counting.
    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    // nil for a direct route.
    private var storage: Storage?

    /// How the proxy is spoken to.
    public var kind: Kind {
        get { storage?.fields.kind ?? .direct }
        set { update { $0.kind = newValue } }
    }
    /// The proxy's host; empty for ``Kind/direct``.
    public var host: String {
        get { storage?.fields.host ?? "" }
        set { update { $0.host = newValue } }
    }
    /// The proxy's port; 0 for ``Kind/direct``.
    public var port: Int {
        get { storage?.fields.port ?? 0 }
        set { update { $0.port = newValue } }
    }
    /// The credential the route was configured with, for `Proxy-Authorization` or SOCKS5 user/password
    /// authentication; `nil` when none was given.
    public var credential: Credential? {
        get { storage?.fields.credential }
        set { update { $0.credential = newValue } }
    }
    /// Whether the proxy resolves the origin's host name (SOCKS5 when `true`, curl's `socks5h`; SOCKS4a when `true`,
    /// plain SOCKS4 with local resolution when `false`). HTTP proxies always resolve names themselves.
    public var resolvesNamesRemotely: Bool {
        get { storage?.fields.resolvesNamesRemotely ?? false }
        set { update { $0.resolvesNamesRemotely = newValue } }
    }

    /// Creates a route.
    /// - Parameters:
    ///   - kind: How the proxy is spoken to.
    ///   - host: The proxy's host, lower-cased on the way in.
    ///   - port: The proxy's port.
    ///   - credential: The proxy's credential, if the configuration gave one.
    ///   - resolvesNamesRemotely: For SOCKS5 and SOCKS4a, whether the proxy resolves host names (`false` for SOCKS4
    ///     on a ``Kind/socks4a`` route). Ignored for other kinds.
    public init(kind: Kind, host: String, port: Int, credential: Credential? = nil, resolvesNamesRemotely: Bool = true) {
        guard kind != .direct else {
            storage = nil
            return
        }
        storage = Storage(Fields(kind: kind, host: host.lowercased(), port: port, credential: credential,
                                 resolvesNamesRemotely: kind == .socks5 || kind == .socks4a ? resolvesNamesRemotely : true))
    }

    /// Changes one field and builds the route again, so the initializer's rules (lower-cased host, a direct route
    /// without fields) hold after every change.
    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage?.fields
            ?? Fields(kind: .direct, host: "", port: 0, credential: nil, resolvesNamesRemotely: false)
        change(&fields)
        self = ProxyRoute(kind: fields.kind, host: fields.host, port: fields.port, credential: fields.credential,
                          resolvesNamesRemotely: fields.resolvesNamesRemotely)
    }

    /// Compares kind, host, port, credential and name resolution.
    public static func == (lhs: ProxyRoute, rhs: ProxyRoute) -> Bool {
        lhs.storage === rhs.storage || lhs.storage?.fields == rhs.storage?.fields
    }

    /// Hashes kind, host, port, credential and name resolution.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage?.fields)
    }

    /// Connect to the origin itself.
    public static let direct = ProxyRoute(kind: .direct, host: "", port: 0)

    /// Through an HTTP proxy.
    /// - Parameters:
    ///   - host: The proxy's host.
    ///   - port: The proxy's port.
    ///   - credential: The proxy's credential, if any.
    /// - Returns: The route.
    public static func http(host: String, port: Int, credential: Credential? = nil) -> ProxyRoute {
        ProxyRoute(kind: .http, host: host, port: port, credential: credential)
    }

    /// Through an HTTP proxy reached over TLS.
    /// - Parameters:
    ///   - host: The proxy's host.
    ///   - port: The proxy's port.
    ///   - credential: The proxy's credential, if any.
    /// - Returns: The route.
    public static func https(host: String, port: Int, credential: Credential? = nil) -> ProxyRoute {
        ProxyRoute(kind: .https, host: host, port: port, credential: credential)
    }

    /// Through a SOCKS4a proxy.
    /// - Parameters:
    ///   - host: The proxy's host.
    ///   - port: The proxy's port.
    ///   - user: The SOCKS4 user id, if any (its password is ignored).
    /// - Returns: The route.
    public static func socks4a(host: String, port: Int, user: String? = nil) -> ProxyRoute {
        ProxyRoute(kind: .socks4a, host: host, port: port, credential: user.map { Credential(user: $0, password: "") })
    }

    /// Through a SOCKS4 proxy that is given IPv4 addresses resolved locally (curl's `socks4://`): a
    /// ``Kind/socks4a`` route whose ``resolvesNamesRemotely`` is `false`.
    /// - Parameters:
    ///   - host: The proxy's host.
    ///   - port: The proxy's port.
    ///   - user: The SOCKS4 user id, if any (its password is ignored).
    /// - Returns: The route.
    public static func socks4(host: String, port: Int, user: String? = nil) -> ProxyRoute {
        ProxyRoute(kind: .socks4a, host: host, port: port, credential: user.map { Credential(user: $0, password: "") },
                   resolvesNamesRemotely: false)
    }

    /// Through a SOCKS5 proxy.
    /// - Parameters:
    ///   - host: The proxy's host.
    ///   - port: The proxy's port.
    ///   - credential: The user name and password for RFC 1929 authentication, if any.
    ///   - resolvesNamesRemotely: Whether the proxy resolves host names (curl's `socks5h`). Default `true`.
    /// - Returns: The route.
    public static func socks5(
        host: String,
        port: Int,
        credential: Credential? = nil,
        resolvesNamesRemotely: Bool = true
    ) -> ProxyRoute {
        ProxyRoute(kind: .socks5, host: host, port: port, credential: credential,
                   resolvesNamesRemotely: resolvesNamesRemotely)
    }

    /// Whether this route goes through a proxy.
    public var isDirect: Bool { storage == nil }

    /// Whether `other` names the same proxy (kind, host and port), whatever the credentials.
    /// - Parameter other: Another route.
    /// - Returns: `true` for the same proxy.
    public func isSameProxy(as other: ProxyRoute) -> Bool {
        kind == other.kind && host == other.host && port == other.port
    }

    /// For example `DIRECT` or `socks5h://proxy.example:1080`; the credential is never shown.
    public var description: String {
        if kind == .direct { return "DIRECT" }
        let scheme = kind == .socks5 && resolvesNamesRemotely ? "socks5h"
            : kind == .socks4a && !resolvesNamesRemotely ? "socks4" : kind.scheme
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(credential == nil ? "" : "<redacted>@")\(shownHost):\(port)"
    }
}
