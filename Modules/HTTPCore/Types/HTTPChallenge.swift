/// One parsed challenge from a `WWW-Authenticate` or `Proxy-Authenticate` field (RFC 9110 §11.6.1), as the
/// pipeline hands it to an ``HTTPAuthenticator``.
public struct HTTPChallenge: Sendable, Hashable {
    /// The scheme, such as `Digest`.
    public var scheme: AuthenticationScheme
    /// The auth-params, keys lower-cased, values unquoted.
    public var parameters: [String: String]
    /// The `token68` value, when the challenge carries one instead of parameters (an NTLM `CHALLENGE_MESSAGE`).
    public var token68: String?

    /// Creates a challenge.
    /// - Parameters:
    ///   - scheme: The scheme.
    ///   - parameters: The parameters, keys lower-cased.
    ///   - token68: The `token68` value, if any.
    public init(scheme: AuthenticationScheme, parameters: [String: String] = [:], token68: String? = nil) {
        self.scheme = scheme
        self.parameters = parameters
        self.token68 = token68
    }

    /// The protection space's realm, if the challenge names one.
    public var realm: String? { parameters["realm"] }
}
