import Synchronization

/// The default credential store: credentials that worked, kept in memory for the life of the client
/// (ASIHTTPRequest's session credential store, `useSessionPersistence`), for servers and proxies alike.
public final class SessionCredentialStore: CredentialStore {
    /// The saved entries, oldest first; a save for a saved scope replaces it in place.
    private let entries = Mutex<[(scope: CredentialScope, credential: Credential)]>([])

    /// Creates an empty store.
    public init() {}

    /// Returns the credential whose scope best matches by the core's rule
    /// (``CredentialScope/bestMatch(among:scope:)``): an exact realm first, then one saved without a realm; a scope
    /// without a realm matches any realm on the same scheme, host, port and target. Among equal matches the oldest
    /// entry wins.
    /// - Parameter scope: Where the credential is needed.
    /// - Returns: The credential, or `nil`.
    public func credential(for scope: CredentialScope) async -> Credential? {
        entries.withLock { saved in
            guard !saved.isEmpty else { return nil }  // the common case compares nothing
            return scope.bestMatch(among: saved, scope: \.scope)?.credential
        }
    }

    /// Saves a credential for the scope, replacing what was saved for exactly that scope.
    /// - Parameters:
    ///   - credential: The credential.
    ///   - scope: Where it applies.
    public func save(_ credential: Credential, for scope: CredentialScope) async {
        entries.withLock { saved in
            if let index = saved.firstIndex(where: { $0.scope == scope }) {
                saved[index].credential = credential
            } else {
                saved.append((scope, credential))
            }
        }
    }

    /// Removes the credential saved for exactly this scope.
    /// - Parameter scope: The scope.
    public func removeCredential(for scope: CredentialScope) async {
        entries.withLock { $0.removeAll { $0.scope == scope } }
    }

    /// Whether no credential is saved; the pipeline then skips its pre-emptive lookup.
    public var isKnownEmpty: Bool {
        entries.withLock { $0.isEmpty }
    }

    /// Removes every credential, server and proxy (part of ASIHTTPRequest's `clearSession`).
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
