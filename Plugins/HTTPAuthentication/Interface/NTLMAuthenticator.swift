public import HTTPCore

/// NTLM (MS-NLMP), NTLMv2 responses only: the three-message handshake on one kept-alive connection (the pipeline
/// asks the transport for the challenged connection through ``RequestContext/preferredConnectionID``). The domain
/// is the credential's ``Credential/domain``, else the part before a backslash in a `DOMAIN\user` name. The NT
/// hash's MD4 is computed here, not by OpenSSL, whose default provider lacks it.
public struct NTLMAuthenticator: HTTPAuthenticator {
    /// `NTLM`.
    public var scheme: AuthenticationScheme { .ntlm }
    /// 20: preferred to Basic and Bearer, not to Digest (curl's `--anyauth` order), since NTLM needs three
    /// messages on one connection where Digest needs two.
    public var preference: Int { 20 }
    /// The workstation name sent in AUTHENTICATE; empty by default.
    public var workstation: String
    /// Whether OpenSSL computes a hash function here; replaced by tests.
    var isAvailable: @Sendable (Hashing.Function) -> Bool = Hashing.isAvailable

    /// Creates the authenticator.
    /// - Parameter workstation: The workstation name to send; empty by default.
    public init(workstation: String = "") {
        self.workstation = workstation
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
        return NTLMNegotiation(credential: credential, workstation: workstation)
    }
}

extension HTTPAuthenticator where Self == NTLMAuthenticator {
    /// NTLMv2 (MS-NLMP), from HTTPAuthentication.
    /// - Parameter workstation: The workstation name to send; empty by default.
    /// - Returns: The authenticator.
    public static func ntlm(workstation: String = "") -> NTLMAuthenticator {
        NTLMAuthenticator(workstation: workstation)
    }
}
