public import HTTPCore

/// HTTP Digest (RFC 7616): MD5, MD5-sess, SHA-256, SHA-256-sess, SHA-512-256 and SHA-512-256-sess; qop `auth`
/// and `auth-int` (for bodies held in memory); nonce counting on a reused nonce; `stale=true` answered with the
/// new nonce and the same credential; `userhash`; non-ASCII user names as `username*` (RFC 8187).
///
/// ```swift
/// let client = Client(transport: .posix(), authenticators: [.digest(), .ntlm()])
/// ```
public struct DigestAuthenticator: HTTPAuthenticator {
    /// `Digest`.
    public var scheme: AuthenticationScheme { .digest }
    /// 30: preferred to every other built-in scheme (curl's `--anyauth` order: Digest, then NTLM, then Basic).
    public var preference: Int { 30 }

    /// Whether OpenSSL computes a hash function here; replaced by tests.
    var isAvailable: @Sendable (Hashing.Function) -> Bool = Hashing.isAvailable

    /// Creates the authenticator.
    public init() {}

    /// Starts a Digest negotiation.
    /// - Parameters:
    ///   - challenge: A `Digest` challenge.
    ///   - credential: A user name and password.
    /// - Returns: The negotiation.
    /// - Throws: ``ClientError`` with ``ClientError/Code/authenticationFailed`` for a challenge without a nonce, an
    ///   unknown algorithm, only unknown qop values, or an algorithm the system's OpenSSL refuses (MD5 under FIPS).
    public func negotiation(answering challenge: HTTPChallenge, with credential: Credential) throws
        -> any AuthenticationNegotiation
    {
        try DigestNegotiation(challenge: challenge, credential: credential, isAvailable: isAvailable) {
            Hashing.hex(Hashing.random(16))
        }
    }

    static func failure(_ message: String) -> ClientError {
        ClientError(.authenticationFailed, stage: .credentials, message: "Digest: \(message)")
    }
}

extension HTTPAuthenticator where Self == DigestAuthenticator {
    /// HTTP Digest (RFC 7616), from HTTPAuthentication.
    /// - Returns: The authenticator.
    public static func digest() -> DigestAuthenticator { DigestAuthenticator() }
}
