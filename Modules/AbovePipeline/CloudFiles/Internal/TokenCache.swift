import FoundationEssentials
import HTTPCore

/// Holds the session, authenticates when there is none, and renews it once per rejected token: callers that saw
/// the same token refused at the same time share one renewal. Keeps the session in a `CredentialStore` when given.
actor TokenCache {
    /// Sends one identity request and reads its whole answer.
    typealias Sender = @Sendable (Request) async throws -> IdentityRequests.Answer

    let authentication: CloudFilesAuthentication
    let store: (any CredentialStore)?
    let options: RequestOptions
    private var session: CloudFilesSession?
    private var pending: Task<CloudFilesSession, any Error>?
    private(set) var authenticationCount = 0

    init(authentication: CloudFilesAuthentication, store: (any CredentialStore)?, options: RequestOptions) {
        self.authentication = authentication
        self.store = store
        self.options = options
    }

    /// The current session, without authenticating.
    var current: CloudFilesSession? { session }

    /// The session: the cached one, the stored one, or a new one.
    func session(send: @escaping Sender) async throws -> CloudFilesSession {
        if let session { return session }
        if let stored = try await loadStored() {
            session = stored
            return stored
        }
        return try await authenticate(send: send)
    }

    /// A new session unless `rejected` has already been replaced (another request renewed it meanwhile).
    func renew(rejected: String, send: @escaping Sender) async throws -> CloudFilesSession {
        if let session, session.token != rejected { return session }
        session = nil
        if let store, let scope { try? await store.removeCredential(for: scope) }
        return try await authenticate(send: send)
    }

    /// Forgets the session (and the stored one).
    func clear() async {
        session = nil
        if let store, let scope { try? await store.removeCredential(for: scope) }
    }

    private func authenticate(send: @escaping Sender) async throws -> CloudFilesSession {
        if let pending { return try await pending.value }
        let authentication = authentication
        let options = options
        let task = Task {
            let answer = try await send(IdentityRequests.request(for: authentication, options: options))
            return try IdentityRequests.session(from: answer, for: authentication)
        }
        pending = task
        defer { pending = nil }
        let fresh = try await task.value
        authenticationCount += 1
        session = fresh
        if let store, let scope {
            var credential = Credential(user: fresh.storageURL.absoluteString, password: fresh.token)
            credential.domain = fresh.cdnManagementURL?.absoluteString
            try? await store.save(credential, for: scope)
        }
        return fresh
    }

    /// The scope the session is stored under: the identity URL's origin, with the user (never the key) as the realm.
    private var scope: CredentialScope? {
        CredentialScope(url: authentication.url, realm: "CloudFiles " + authentication.identity)
    }

    private func loadStored() async throws -> CloudFilesSession? {
        guard let store, let scope, let stored = try await store.credential(for: scope),
            stored.looksLikeSession, let storage = URL(string: stored.user), !stored.password.isEmpty
        else { return nil }
        return CloudFilesSession(
            token: stored.password, storageURL: storage, cdnManagementURL: stored.domain.flatMap(URL.init(string:)))
    }
}

extension Credential {
    /// A stored session's user is its storage URL.
    fileprivate var looksLikeSession: Bool { user.hasPrefix("http://") || user.hasPrefix("https://") }
}
