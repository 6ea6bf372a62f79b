/// Keeps credentials by scope (scheme, host, port, realm; server or proxy).
///
/// ## Implementation requirements
/// - Be safe to call from many tasks at once.
/// - ``credential(for:)`` with a scope whose realm is `nil` returns a credential saved for the same scheme,
///   host, port and target under any realm; with a realm, prefer an exact realm match, then one saved without
///   a realm.
/// - Never log or print a credential. Stores that write to disk must create files with mode 0600.
///
/// ## Implement a custom credential store
/// ```swift
/// struct EnvironmentCredentials: CredentialStore {
///     func credential(for scope: CredentialScope) -> Credential? {
///         guard let user = getenv("API_USER"), let pass = getenv("API_PASS") else { return nil }
///         return Credential(user: String(cString: user), password: String(cString: pass))
///     }
///     func save(_ credential: Credential, for scope: CredentialScope) {}
///     func removeCredential(for scope: CredentialScope) {}
/// }
/// ```
public protocol CredentialStore: PluginLifecycle {
    /// Returns the credential for a scope.
    /// - Parameter scope: Where the credential is needed.
    /// - Returns: The best match, or `nil`.
    /// - Throws: ``ClientError`` when the storage fails.
    func credential(for scope: CredentialScope) async throws -> Credential?
    /// Saves a credential that the server accepted.
    /// - Parameters:
    ///   - credential: The credential.
    ///   - scope: Where it applies.
    /// - Throws: ``ClientError`` when the storage fails.
    func save(_ credential: Credential, for scope: CredentialScope) async throws
    /// Removes the credential saved for a scope (for example after the server rejected it).
    /// - Parameter scope: The scope.
    /// - Throws: ``ClientError`` when the storage fails.
    func removeCredential(for scope: CredentialScope) async throws
}
