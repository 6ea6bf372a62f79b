public import HTTPCore
import Synchronization

/// The default credential store: credentials that worked, kept in memory for the life of the client
/// (ASIHTTPRequest's session credential store, `useSessionPersistence`).
public final class SessionCredentialStore: CredentialStore {
    private let credentials = Mutex<[CredentialScope: Credential]>([:])

    /// Creates an empty store.
    public init() {}

    /// Returns the credential for the scope: an exact realm match first, then one saved without a realm; a scope
    /// without a realm matches any realm on the same scheme, host, port and target.
    /// - Parameter scope: Where the credential is needed.
    /// - Returns: The credential, or `nil`.
    public func credential(for scope: CredentialScope) async -> Credential? {
        credentials.withLock { stored in
            guard !stored.isEmpty else { return nil }  // the common case hashes nothing
            if let exact = stored[scope] { return exact }
            var realmless = scope
            realmless.realm = nil
            if scope.realm != nil { return stored[realmless] }
            return stored.first { key, _ in
                var candidate = key
                candidate.realm = nil
                return candidate == realmless
            }?.value
        }
    }

    /// Saves a credential for the scope.
    /// - Parameters:
    ///   - credential: The credential.
    ///   - scope: Where it applies.
    public func save(_ credential: Credential, for scope: CredentialScope) async {
        credentials.withLock { $0[scope] = credential }
    }

    /// Removes the credential saved for exactly this scope.
    /// - Parameter scope: The scope.
    public func removeCredential(for scope: CredentialScope) async {
        credentials.withLock { _ = $0.removeValue(forKey: scope) }
    }

    /// Whether no credential is saved; the pipeline then skips building a scope for a pre-emptive lookup.
    var isEmpty: Bool {
        credentials.withLock { $0.isEmpty }
    }

    /// Removes every credential (part of ASIHTTPRequest's `clearSession`).
    public func removeAll() {
        credentials.withLock { $0.removeAll() }
    }
}
