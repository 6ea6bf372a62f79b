public import HTTPCore

/// A read-only ``CredentialStore`` over a `.netrc` file, with curl's rules (see ``NetrcFile``).
///
/// It answers server scopes by host alone — curl matches a `.netrc` `machine` against the host only, whatever
/// the scheme, port or realm — so it deliberately does not use ``CredentialScope/bestMatch(among:scope:)``, and
/// it does not pass `CredentialStoreConformance` (which needs a writable store). Proxy scopes are never answered.
/// ``save(_:for:)``, ``removeCredential(for:)`` and ``removeAll()`` do nothing: the pipeline saves every accepted
/// credential and removes rejected ones, and a `.netrc` is the user's file, never rewritten by a client. Put it
/// where a read-only source belongs, for example as the persistent store of a client whose requests ask for it
/// (`usesPersistentCredentialStore`), or look credentials up yourself with ``NetrcFile/credential(forHost:user:)``.
public struct NetrcCredentialStore: CredentialStore, CustomStringConvertible {
    /// The parsed file.
    public let file: NetrcFile
    /// The user that picks among several accounts for one host (curl takes it from the URL), or `nil`.
    public let user: String?

    /// Creates a store over a parsed file.
    /// - Parameters:
    ///   - file: The `.netrc` contents.
    ///   - user: The user that picks among several accounts for a host, or `nil` for the first that fits.
    public init(file: NetrcFile, user: String? = nil) {
        self.file = file
        self.user = user
    }

    /// The file's credential for the scope's host (server scopes only).
    /// - Parameter scope: Where the credential is needed.
    /// - Returns: The credential, or `nil`.
    public func credential(for scope: CredentialScope) async -> Credential? {
        guard scope.target == .server else { return nil }
        return file.credential(forHost: scope.host, user: user)
    }

    /// Does nothing: a `.netrc` is never written.
    /// - Parameters:
    ///   - credential: Ignored.
    ///   - scope: Ignored.
    public func save(_ credential: Credential, for scope: CredentialScope) async {}

    /// Does nothing: a `.netrc` is never written.
    /// - Parameter scope: Ignored.
    public func removeCredential(for scope: CredentialScope) async {}

    /// Does nothing: a `.netrc` is never written.
    public func removeAll() async {}

    /// Whether the file has no entry at all.
    public var isKnownEmpty: Bool { file.entries.isEmpty }

    /// `NetrcCredentialStore(N entries)`: never a login or password.
    public var description: String { "NetrcCredentialStore(\(file.entries.count) entries)" }
}
