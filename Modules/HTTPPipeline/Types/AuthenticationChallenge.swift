public import FoundationEssentials
public import HTTPCore

/// A server's demand for credentials (a `WWW-Authenticate` challenge), as handed to the client's
/// authentication handler (ASIHTTPRequest's `authenticationNeededForRequest:`).
public struct AuthenticationChallenge: Sendable, Hashable {
    /// The scheme, such as `Basic`.
    public var scheme: AuthenticationScheme
    /// The challenge's parameters, keys lower-cased (`realm`, `nonce`, ...).
    public var parameters: [String: String]
    /// Where the credentials will apply.
    public var scope: CredentialScope
    /// The URL that was challenged.
    public var url: URL
    /// How many credentials were already rejected for this request.
    public var failureCount: Int

    /// The protection space's realm, if the challenge names one.
    public var realm: String? { parameters["realm"] }

    /// Creates a challenge.
    /// - Parameters:
    ///   - scheme: The scheme.
    ///   - parameters: The parameters, keys lower-cased.
    ///   - scope: Where credentials will apply.
    ///   - url: The challenged URL.
    ///   - failureCount: Credentials already rejected.
    public init(
        scheme: AuthenticationScheme,
        parameters: [String: String],
        scope: CredentialScope,
        url: URL,
        failureCount: Int
    ) {
        self.scheme = scheme
        self.parameters = parameters
        self.scope = scope
        self.url = url
        self.failureCount = failureCount
    }
}
