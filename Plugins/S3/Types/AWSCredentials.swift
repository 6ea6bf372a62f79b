/// An AWS access key: the key ID, its secret, and the session token of temporary credentials.
///
/// The secret and the token never appear in a description, a debug description or a `Mirror` (so neither
/// `print`, string interpolation, `dump` nor a logger shows them); only the key ID does.
///
/// ```swift
/// let credentials = try AWSCredentials.fromEnvironment() ?? AWSCredentials.fromSharedFile(profile: "default")
/// ```
public struct AWSCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The access key ID (`AKIA…`); not secret.
    public var accessKeyID: String
    /// The secret access key.
    public var secretAccessKey: String
    /// The session token of temporary credentials (STS), sent as `X-Amz-Security-Token`; `nil` for long-term keys.
    public var sessionToken: String?

    /// Creates credentials.
    /// - Parameters:
    ///   - accessKeyID: The access key ID.
    ///   - secretAccessKey: The secret access key.
    ///   - sessionToken: The session token, for temporary credentials.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The key ID with the secret and the token redacted.
    public var description: String {
        "AWSCredentials(accessKeyID: \(accessKeyID), secretAccessKey: <redacted>"
            + (sessionToken == nil ? ")" : ", sessionToken: <redacted>)")
    }

    /// The same as ``description``: the secret never shows.
    public var debugDescription: String { description }

    /// An empty mirror, so `dump` and reflection show no field.
    public var customMirror: Mirror { Mirror(self, children: []) }
}
