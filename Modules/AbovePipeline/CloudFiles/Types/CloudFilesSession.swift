public import FoundationEssentials

/// What authentication answered: the token and where the account's storage (and Rackspace's CDN management) is.
/// Its description shows the URLs, never the token.
public struct CloudFilesSession: Sendable, Hashable, CustomStringConvertible {
    /// The token sent as `X-Auth-Token`.
    public var token: String
    /// The account's storage URL, for example `http://127.0.0.1:8080/v1/AUTH_test`.
    public var storageURL: URL
    /// Rackspace's CDN management URL, when the identity service gave one.
    public var cdnManagementURL: URL?

    /// Creates a session.
    /// - Parameters:
    ///   - token: The token.
    ///   - storageURL: The storage URL.
    ///   - cdnManagementURL: The CDN management URL.
    public init(token: String, storageURL: URL, cdnManagementURL: URL? = nil) {
        self.token = token
        self.storageURL = storageURL
        self.cdnManagementURL = cdnManagementURL
    }

    /// The storage URL and CDN URL; the token is redacted.
    public var description: String {
        "CloudFilesSession(storage: \(storageURL.absoluteString)"
            + (cdnManagementURL.map { ", cdn: \($0.absoluteString)" } ?? "") + ", token: <redacted>)"
    }
}
