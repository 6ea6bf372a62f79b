import FoundationEssentials
import HTTPCore

/// HTTP Basic (RFC 7617) as an ``HTTPAuthenticator``: the pipeline's own, always registered.
struct BasicAuthenticator: HTTPAuthenticator {
    var scheme: AuthenticationScheme { .basic }
    var preference: Int { 10 }

    func negotiation(answering challenge: HTTPChallenge, with credential: Credential) throws
        -> any AuthenticationNegotiation
    {
        FixedNegotiation(value: BasicAuthentication.authorization(for: credential))
    }
}

/// OAuth 2.0 Bearer tokens (RFC 6750) as an ``HTTPAuthenticator``, for ``Credential/Kind/bearerToken``
/// credentials: the pipeline's own, always registered.
struct BearerAuthenticator: HTTPAuthenticator {
    var scheme: AuthenticationScheme { .bearer }
    var preference: Int { 15 }

    func accepts(_ credential: Credential) -> Bool { credential.kind == .bearerToken }

    func negotiation(answering challenge: HTTPChallenge, with credential: Credential) throws
        -> any AuthenticationNegotiation
    {
        FixedNegotiation(value: Self.authorization(for: credential))
    }

    static func authorization(for credential: Credential) -> String { "Bearer " + credential.password }
}

/// A negotiation whose value never changes (Basic, Bearer): a repeated challenge means the credential was
/// refused.
final class FixedNegotiation: AuthenticationNegotiation {
    let value: String

    init(value: String) { self.value = value }

    func authorization(for request: AuthenticatedRequest) throws -> String { value }

    func proceed(after challenge: HTTPChallenge) -> NegotiationStep { .rejected }
}
