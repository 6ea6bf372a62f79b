public import FoundationEssentials
public import HTTPCore

/// A server's or a proxy's demand for credentials (a `WWW-Authenticate` challenge in a 401, or a
/// `Proxy-Authenticate` challenge in a 407), as handed to the client's authentication handler
/// (ASIHTTPRequest's `authenticationNeededForRequest:` and `proxyAuthenticationNeededForRequest:`).
public struct AuthenticationChallenge: Sendable, Hashable {
    /// The scheme, such as `Basic`.
    public var scheme: AuthenticationScheme
    /// The challenge's parameters, keys lower-cased (`realm`, `nonce`, ...).
    public var parameters: [String: String]
    /// Where the credentials will apply; its ``CredentialScope/target`` is ``CredentialScope/Target/proxy`` for
    /// a proxy's challenge (scheme, host and port are then the proxy's).
    public var scope: CredentialScope
    /// The URL that was challenged (for a proxy's challenge, the URL whose request the proxy refused).
    public var url: URL
    /// How many credentials were already rejected for this request (by this server, or by this proxy).
    public var failureCount: Int
    /// The proxy that challenged, for a 407; `nil` for a server's challenge.
    public var proxy: ProxyRoute?

    /// The protection space's realm, if the challenge names one.
    public var realm: String? { parameters["realm"] }

    /// Whether a proxy asks (a 407), not the origin server.
    public var isForProxy: Bool { scope.target == .proxy }

    /// Creates a challenge.
    /// - Parameters:
    ///   - scheme: The scheme.
    ///   - parameters: The parameters, keys lower-cased.
    ///   - scope: Where credentials will apply.
    ///   - url: The challenged URL.
    ///   - failureCount: Credentials already rejected.
    ///   - proxy: The proxy that challenged, for a 407.
    public init(
        scheme: AuthenticationScheme,
        parameters: [String: String],
        scope: CredentialScope,
        url: URL,
        failureCount: Int,
        proxy: ProxyRoute? = nil
    ) {
        self.scheme = scheme
        self.parameters = parameters
        self.scope = scope
        self.url = url
        self.failureCount = failureCount
        self.proxy = proxy
    }
}
