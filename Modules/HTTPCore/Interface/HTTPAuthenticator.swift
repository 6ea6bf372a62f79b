/// Answers one authentication scheme's challenges: the seam through which Digest, NTLM or a custom scheme plugs
/// into the pipeline's challenge loop (ASIHTTPRequest's `authenticationScheme`). Basic and Bearer are built into
/// the pipeline; the `HTTPAuthentication` plug-in adds Digest and NTLM. Register authenticators on the client
/// (`Client(transport:authenticators:)`); the pipeline keeps the policy (which credential, in which order, what to
/// remember or forget) and asks the authenticator only for the wire format.
///
/// ## Implementation requirements
/// - Be stateless and cheap to keep; per-negotiation state (nonce counts, handshake steps) lives in the
///   ``AuthenticationNegotiation`` that ``negotiation(answering:with:)`` returns.
/// - Never log, print or put a credential or an authorization value in an error or a `description`.
/// - Throw ``ClientError`` with code ``ClientError/Code/authenticationFailed`` and stage
///   ``ClientError/Stage/credentials`` when a challenge cannot be answered (an unknown algorithm, a malformed
///   NTLM message); the pipeline then tries a weaker scheme the server offered, if any.
public protocol HTTPAuthenticator: Sendable {
    /// The scheme answered, matched case-insensitively against the challenges' scheme names.
    var scheme: AuthenticationScheme { get }
    /// The rank among the schemes a server offers at once; the highest supported one is used. Basic is 10,
    /// Bearer 15, NTLM 20, Digest 30.
    var preference: Int { get }
    /// Whether this scheme can use the credential (Bearer needs a token, the others a user name and password).
    /// - Parameter credential: The candidate credential.
    /// - Returns: `true` when ``negotiation(answering:with:)`` can use it.
    func accepts(_ credential: Credential) -> Bool
    /// Starts answering a challenge with a credential.
    /// - Parameters:
    ///   - challenge: The challenge, of ``scheme``.
    ///   - credential: The credential the pipeline picked.
    /// - Returns: The negotiation that produces the authorization values.
    /// - Throws: ``ClientError`` when the challenge cannot be answered.
    func negotiation(answering challenge: HTTPChallenge, with credential: Credential) throws
        -> any AuthenticationNegotiation
}

extension HTTPAuthenticator {
    /// Accepts user name and password credentials.
    /// - Parameter credential: The candidate credential.
    /// - Returns: `true` for ``Credential/Kind/password`` credentials.
    public func accepts(_ credential: Credential) -> Bool { credential.kind == .password }
}

/// One credential's negotiation with one server or proxy: produces the `Authorization` (or
/// `Proxy-Authorization`) value for each request and says what a new challenge of the same scheme means.
///
/// ## Implementation requirements
/// - Be a class safe to call from many tasks: the pipeline keeps an accepted negotiation for later requests to
///   the same server (Digest counts nonces across them), and two requests may ask at once. Keep state behind a
///   `Mutex`.
/// - ``authorization(for:)`` may be called many times; each call is one request on the wire.
/// - Never put a secret in a `description`, a log or an error.
public protocol AuthenticationNegotiation: AnyObject, Sendable {
    /// The field value for one request, such as `Digest username="…", …, nc=00000002, …`.
    /// - Parameter request: The request being sent.
    /// - Returns: The field value.
    /// - Throws: ``ClientError`` when the value cannot be made.
    func authorization(for request: AuthenticatedRequest) throws -> String
    /// What a new challenge of the same scheme, after a request made with this negotiation, means.
    /// - Parameter challenge: The new challenge.
    /// - Returns: ``NegotiationStep/continue`` to send again with the same credential (a stale Digest nonce, an
    ///   NTLM `CHALLENGE_MESSAGE`), or ``NegotiationStep/rejected`` when the credential was refused.
    func proceed(after challenge: HTTPChallenge) -> NegotiationStep
    /// Whether the next request must go on the connection that carried the challenge (NTLM). Default `false`.
    var isConnectionBound: Bool { get }
    /// Whether the negotiation may authorize a later request before any challenge (Digest with a known
    /// nonce, Basic, Bearer: `true`; NTLM, which authenticates a connection: `false`). Default `true`.
    var isReusable: Bool { get }
}

extension AuthenticationNegotiation {
    /// `false`.
    public var isConnectionBound: Bool { false }
    /// `true`.
    public var isReusable: Bool { true }
}

/// What a repeated challenge means to a running ``AuthenticationNegotiation``.
public enum NegotiationStep: Sendable, Hashable {
    /// Send again with the same credential: the negotiation has what it needs for the next value.
    case `continue`
    /// The credential was refused: the pipeline forgets it and looks for another.
    case rejected
}
