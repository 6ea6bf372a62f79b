public import FoundationEssentials

/// A user name and password, or a bearer token. Its `description` never shows the secret.
public struct Credential: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// What the credential holds.
    public enum Kind: Sendable, Hashable {
        /// A user name and password (Basic, Digest, NTLM).
        case password
        /// An OAuth 2.0 bearer token in ``Credential/password`` (RFC 6750); the user name is empty.
        case bearerToken
    }

    /// The user name. For NTLM it may be written `DOMAIN\user`.
    public var user: String
    /// The password.
    public var password: String
    /// The NTLM domain, if any.
    public var domain: String?
    /// Whether this is a user name and password or a bearer token. Default ``Kind/password``.
    public var kind: Kind = .password

    /// Creates a credential.
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password.
    ///   - domain: The NTLM domain, if any.
    public init(user: String, password: String, domain: String? = nil) {
        self.user = user
        self.password = password
        self.domain = domain
    }

    /// A bearer token credential (`Authorization: Bearer <token>`, RFC 6750).
    /// - Parameter token: The token.
    /// - Returns: The credential, with an empty user name and the token as its secret.
    public static func bearer(_ token: String) -> Credential {
        var credential = Credential(user: "", password: token)
        credential.kind = .bearerToken
        return credential
    }

    /// Always `<redacted>`: a credential never appears in logs or errors.
    public var description: String { "<redacted>" }
    /// Always `<redacted>`.
    public var debugDescription: String { "<redacted>" }
    /// No children: `dump(_:)` and `Mirror` show `<redacted>` like `description`, never the user or the secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// Where a credential applies: scheme, host, port and realm, for a server or a proxy.
///
/// A store answers a lookup with the saved scope that best matches the wanted one; the rule is
/// ``match(against:)`` and ``bestMatch(among:scope:)``, so every store ranks the same way.
public struct CredentialScope: Sendable, Hashable, CustomStringConvertible {
    /// Whether the credential is for the origin server or for a proxy.
    public enum Target: Sendable, Hashable {
        /// The origin server (401 challenges).
        case server
        /// A proxy (407 challenges).
        case proxy
    }

    /// The URL scheme, lower-cased (`http` or `https`).
    public var scheme: String
    /// The host, lower-cased.
    public var host: String
    /// The port; the scheme's default when the URL has none.
    public var port: Int
    /// The realm from the challenge; `nil` when not known yet (credentials sent before any challenge).
    public var realm: String?
    /// Server or proxy.
    public var target: Target

    /// Creates a scope.
    /// - Parameters:
    ///   - scheme: The URL scheme.
    ///   - host: The host.
    ///   - port: The port.
    ///   - realm: The realm, if known.
    ///   - target: Server or proxy.
    public init(scheme: String, host: String, port: Int, realm: String? = nil, target: Target = .server) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
        self.realm = realm
        self.target = target
    }

    /// Creates the scope of a server's credentials for a URL: its scheme, host and port (the scheme's default when
    /// the URL names none), as the pipeline looks them up when it sends a request to that URL.
    /// - Parameters:
    ///   - url: An `http` or `https` URL; its path, query and user info are ignored.
    ///   - realm: The realm, if known; `nil` matches a credential saved for any realm.
    ///
    /// The initializer fails when the URL has no scheme or host.
    public init?(url: URL, realm: String? = nil) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host(percentEncoded: false), !host.isEmpty
        else { return nil }
        self.init(scheme: scheme, host: host, port: url.port ?? (scheme == "https" ? 443 : 80), realm: realm)
    }

    /// Creates the scope of a proxy's credentials: the route kind's scheme (`http`, `https`, `socks5`, ...), the
    /// proxy's host and port, and target ``Target/proxy``. It never matches a server's scope.
    /// - Parameters:
    ///   - proxy: The proxy route (its credential is ignored).
    ///   - realm: The realm from the proxy's challenge, if known.
    public init(proxy: ProxyRoute, realm: String? = nil) {
        self.init(scheme: proxy.kind.scheme, host: proxy.host, port: proxy.port, realm: realm, target: .proxy)
    }

    /// For example `https://example.com:443 realm="api"`.
    public var description: String {
        "\(target == .proxy ? "proxy " : "")\(scheme)://\(host):\(port)" + (realm.map { " realm=\"\($0)\"" } ?? "")
    }
}
