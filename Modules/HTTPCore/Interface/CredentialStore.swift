public import FoundationEssentials

/// Keeps credentials by scope (scheme, host, port, realm; server or proxy).
///
/// A client has two slots: ``CredentialStore``s for the session (ASIHTTPRequest's session store,
/// `useSessionPersistence`, on by default) and for persistence across launches (ASIHTTPRequest's Keychain,
/// `useKeychainPersistence`, off unless a request asks). The pipeline decides which store is asked, saved to and
/// removed from, following the request's options; a store only keeps and answers. In particular a store never
/// decides that a credential is bad: after a rejection the pipeline removes it from the session store wherever
/// that store answers with it (when the request uses the store), and from the persistent store only when it came
/// from there and the request asked for persistence.
///
/// ## Implementation requirements
/// - Be safe to call from many tasks at once.
/// - Answer ``credential(for:)`` with the saved credential whose scope is
///   ``CredentialScope/bestMatch(among:scope:)`` for the wanted scope: the core's one rule (exact realm first, then
///   one saved without a realm; a lookup without a realm matches any realm; scheme, host, port and target must be
///   equal, so proxy and server credentials never answer each other). Do not write a rule of your own.
/// - ``save(_:for:)`` replaces what is saved for exactly that scope; saving the credential that is already there
///   should not rewrite storage (the pipeline saves after each success).
/// - ``removeCredential(for:)`` removes what is saved for exactly that scope; a missing entry is not an error.
/// - ``removeAll()`` removes every credential, server and proxy.
/// - ``isKnownEmpty`` is `true` only when the store certainly holds nothing; the default `false` is always safe.
/// - Never log or print a credential. Stores that write to disk must create files with mode 0600.
///
/// ## Implement a custom credential store
/// ```swift
/// struct EnvironmentCredentials: CredentialStore {
///     func credential(for scope: CredentialScope) -> Credential? {
///         guard scope.target == .server, let user = getenv("API_USER"), let pass = getenv("API_PASS")
///         else { return nil }
///         return Credential(user: String(cString: user), password: String(cString: pass))
///     }
///     func save(_ credential: Credential, for scope: CredentialScope) {}
///     func removeCredential(for scope: CredentialScope) {}
///     func removeAll() {}
/// }
/// ```
public protocol CredentialStore: PluginLifecycle {
    /// Returns the credential for a scope.
    /// - Parameter scope: Where the credential is needed.
    /// - Returns: The best match by ``CredentialScope/bestMatch(among:scope:)``, or `nil`.
    /// - Throws: ``ClientError`` when the storage fails.
    func credential(for scope: CredentialScope) async throws -> Credential?
    /// Saves a credential that the server or proxy accepted.
    /// - Parameters:
    ///   - credential: The credential.
    ///   - scope: Where it applies.
    /// - Throws: ``ClientError`` when the storage fails.
    func save(_ credential: Credential, for scope: CredentialScope) async throws
    /// Removes the credential saved for exactly this scope (for example after the server rejected it).
    /// - Parameter scope: The scope.
    /// - Throws: ``ClientError`` when the storage fails.
    func removeCredential(for scope: CredentialScope) async throws
    /// Removes every credential, for servers and proxies (part of ASIHTTPRequest's `clearSession`).
    /// - Throws: ``ClientError`` when the storage fails.
    func removeAll() async throws
    /// Whether the store certainly holds no credential; the pipeline then skips its pre-emptive lookup.
    /// `false` when unknown (the default), so a store that cannot tell cheaply is always asked.
    var isKnownEmpty: Bool { get }
}

extension CredentialStore {
    /// `false`: the store is asked on every lookup.
    public var isKnownEmpty: Bool { false }

    /// Returns the server credential this store would answer a request to `url` with, without sending anything:
    /// ask a keyring whether it holds a login before showing a prompt (ASIHTTPRequest's
    /// `savedCredentialsForHost:port:protocol:realm:`).
    ///
    /// The lookup is the pipeline's: scheme, host and port from the URL (the scheme's default port when it names
    /// none), ranked by ``CredentialScope/bestMatch(among:scope:)``, so without a realm a credential saved for any
    /// realm of that origin answers.
    /// - Parameters:
    ///   - url: The URL a request would go to.
    ///   - realm: The realm, if known.
    /// - Returns: The credential, or `nil` when the store holds none for that origin (or the URL has no host).
    /// - Throws: ``ClientError`` when the storage fails (a wrong keyring passphrase, say).
    public func credential(for url: URL, realm: String? = nil) async throws -> Credential? {
        guard let scope = CredentialScope(url: url, realm: realm) else { return nil }
        return try await credential(for: scope)
    }
}
