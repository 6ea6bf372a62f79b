public import HTTPCore

/// NTLM (MS-NLMP): the three-message handshake on one kept-alive connection (the pipeline asks the transport for
/// the challenged connection through ``RequestContext/preferredConnectionID``). The domain is the credential's
/// ``Credential/domain``, else the part before a backslash in a `DOMAIN\user` name. The NT hash's MD4 is computed
/// here, not by OpenSSL, whose default provider lacks it.
///
/// The answer is NTLMv2. A server whose CHALLENGE carries no target info cannot check NTLMv2; such a legacy server
/// gets an NTLMv1 answer only when ``allowsNTLMv1`` is on (off by default: an NTLMv1 answer seen on the wire can be
/// cracked offline to a password equivalent, and a man in the middle can ask for it by dropping the target info).
public struct NTLMAuthenticator: HTTPAuthenticator {
    /// `NTLM`.
    public var scheme: AuthenticationScheme { .ntlm }
    /// 20: preferred to Basic and Bearer, not to Digest (curl's `--anyauth` order), since NTLM needs three
    /// messages on one connection where Digest needs two.
    public var preference: Int { 20 }
    /// The workstation name sent in AUTHENTICATE; empty by default.
    public var workstation: String
    /// Whether a server that cannot check NTLMv2 (no target info in its CHALLENGE) is answered with NTLMv1, after
    /// curl's NEGOTIATE flags; `false` by default, and such a server then gets an NTLMv2 answer it cannot check.
    /// Turn it on only for a legacy server you trust, on a network you trust.
    public var allowsNTLMv1: Bool
    /// Whether OpenSSL computes a hash function here; replaced by tests.
    var isAvailable: @Sendable (Hashing.Function) -> Bool = Hashing.isAvailable

    /// Creates the authenticator.
    /// - Parameters:
    ///   - workstation: The workstation name to send; empty by default.
    ///   - allowsNTLMv1: Whether a server that cannot check NTLMv2 gets an NTLMv1 answer; `false` by default.
    public init(workstation: String = "", allowsNTLMv1: Bool = false) {
        self.workstation = workstation
        self.allowsNTLMv1 = allowsNTLMv1
    }

    /// Starts an NTLM handshake; its first value is the NEGOTIATE_MESSAGE.
    /// - Parameters:
    ///   - challenge: An `NTLM` challenge (without a token).
    ///   - credential: A user name and password, and a domain.
    /// - Returns: The negotiation.
    /// - Throws: ``ClientError`` with ``ClientError/Code/authenticationFailed`` when the system's OpenSSL refuses
    ///   MD5 (a FIPS configuration), so the pipeline answers another offered scheme.
    public func negotiation(answering challenge: HTTPChallenge, with credential: Credential) throws
        -> any AuthenticationNegotiation
    {
        guard isAvailable(.md5) else {
            throw ClientError(.authenticationFailed, stage: .credentials,
                              message: "NTLM: the system's OpenSSL refuses MD5 (a FIPS configuration?)")
        }
        return NTLMNegotiation(credential: credential, workstation: workstation, allowsNTLMv1: allowsNTLMv1)
    }
}

extension HTTPAuthenticator where Self == NTLMAuthenticator {
    /// NTLM (MS-NLMP), from HTTPAuthentication: NTLMv2, and NTLMv1 for legacy servers only when allowed.
    /// - Parameters:
    ///   - workstation: The workstation name to send; empty by default.
    ///   - allowsNTLMv1: Whether a server that cannot check NTLMv2 gets an NTLMv1 answer; `false` by default.
    /// - Returns: The authenticator.
    public static func ntlm(workstation: String = "", allowsNTLMv1: Bool = false) -> NTLMAuthenticator {
        NTLMAuthenticator(workstation: workstation, allowsNTLMv1: allowsNTLMv1)
    }
}
