public import HTTPCore
import Synchronization

/// A credential store that records every call and passes it to a real store (in memory by default).
public final class RecordingCredentialStore: CredentialStore {
    /// One recorded call.
    public enum Call: Sendable, Hashable {
        /// A lookup for the scope.
        case lookup(CredentialScope)
        /// A save for the scope.
        case save(CredentialScope)
        /// A removal for the scope.
        case remove(CredentialScope)
        /// A removal of everything.
        case removeAll
    }

    private let base: any CredentialStore
    private let forwardsIsKnownEmpty: Bool
    private let recorded = Mutex<[Call]>([])

    /// Creates the store.
    /// - Parameters:
    ///   - base: The store that keeps the credentials.
    ///   - forwardsIsKnownEmpty: Whether ``isKnownEmpty`` passes on the base store's hint; `false` (the default)
    ///     answers `false`, so every lookup reaches the store and is recorded.
    public init(base: any CredentialStore = SessionCredentialStore(), forwardsIsKnownEmpty: Bool = false) {
        self.base = base
        self.forwardsIsKnownEmpty = forwardsIsKnownEmpty
    }

    /// Records and forwards the lookup.
    /// - Parameter scope: The scope.
    /// - Returns: The base store's answer.
    /// - Throws: What the base store throws.
    public func credential(for scope: CredentialScope) async throws -> Credential? {
        recorded.withLock { $0.append(.lookup(scope)) }
        return try await base.credential(for: scope)
    }

    /// Records and forwards the save.
    /// - Parameters:
    ///   - credential: The credential.
    ///   - scope: The scope.
    /// - Throws: What the base store throws.
    public func save(_ credential: Credential, for scope: CredentialScope) async throws {
        recorded.withLock { $0.append(.save(scope)) }
        try await base.save(credential, for: scope)
    }

    /// Records and forwards the removal.
    /// - Parameter scope: The scope.
    /// - Throws: What the base store throws.
    public func removeCredential(for scope: CredentialScope) async throws {
        recorded.withLock { $0.append(.remove(scope)) }
        try await base.removeCredential(for: scope)
    }

    /// Records and forwards the removal of everything.
    /// - Throws: What the base store throws.
    public func removeAll() async throws {
        recorded.withLock { $0.append(.removeAll) }
        try await base.removeAll()
    }

    /// The base store's hint when created with `forwardsIsKnownEmpty`, else `false`. Not recorded.
    public var isKnownEmpty: Bool { forwardsIsKnownEmpty && base.isKnownEmpty }

    /// Every call so far, in order.
    public var calls: [Call] { recorded.withLock { $0 } }
}
