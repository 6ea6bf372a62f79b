import FoundationEssentials
import HTTPCore

/// The 401 challenge loop: which credential to try next, and what to remember afterwards.
///
/// Sources, in ASIHTTPRequest's order (asi-features.md §9): the credential store (when the request uses it),
/// the URL's `user:password`, the request's ``RequestOptions/credential``, then the client's authentication
/// handler. A credential the server rejected is removed from the store and never tried again for this request;
/// when no source is left the request fails with ``ClientError/Code/authenticationFailed``.
///
/// Only Basic is answered today; a scheme is added by teaching ``authorization(for:credential:)`` to answer it,
/// the loop stays the same.
struct AuthenticationStage: Sendable {
    /// Where the credential being used came from.
    enum Source: Sendable, Equatable {
        case store, url, request, handler
    }

    /// One request's authentication state; reset when a redirect changes the origin.
    struct State: Sendable {
        var credential: Credential?
        var source: Source?
        var scope: CredentialScope?
        var rejected: Set<Credential> = []
        var wasChallenged = false
        var origin: Origin?

        /// Whether nothing is remembered yet; such a state needs no reset when the origin changes.
        var isEmpty: Bool {
            credential == nil && source == nil && scope == nil && rejected.isEmpty && !wasChallenged
        }
    }

    let store: any CredentialStore
    let handler: (@Sendable (AuthenticationChallenge) async throws -> Credential?)?

    static let supportedSchemes: [AuthenticationScheme] = [.basic]

    /// Whether ``preemptiveAuthorization(for:state:)`` can return a value: `false` for an empty state, no
    /// request credential and nothing in the default store, so the pipeline skips the async call.
    func mayAuthorizePreemptively(_ request: Request, state: State) -> Bool {
        !state.isEmpty || request.options.presentsCredentialsBeforeChallenge
            && (Self.basicCredential(of: request) != nil || mayAskStore(for: request))
    }

    /// The `Authorization` value to send before any challenge, if any.
    func preemptiveAuthorization(for request: Request, state: inout State) async throws -> String? {
        resetIfOriginChanged(for: request.url, state: &state)
        if let credential = state.credential, state.wasChallenged || state.source == .request {
            return BasicAuthentication.authorization(for: credential)
        }
        guard request.options.presentsCredentialsBeforeChallenge else { return nil }
        let requestCredential = Self.basicCredential(of: request)
        guard requestCredential != nil || mayAskStore(for: request), let origin = Origin(request.url) else {
            return nil
        }
        if let credential = requestCredential {
            state.credential = credential
            state.source = .request
            state.scope = CredentialScope(scheme: origin.scheme, host: origin.host, port: origin.port)
            state.origin = origin
            return BasicAuthentication.authorization(for: credential)
        }
        let scope = CredentialScope(scheme: origin.scheme, host: origin.host, port: origin.port)
        if let credential = try await storedCredential(for: scope, request: request) {
            state.credential = credential
            state.source = .store
            state.scope = scope
            state.origin = origin
            return BasicAuthentication.authorization(for: credential)
        }
        return nil
    }

    /// The store's credential for the scope, unless the request brings a different one of its own: explicit
    /// credentials override stored ones, as in ASIHTTPRequest's session-store matching.
    private func storedCredential(for scope: CredentialScope, request: Request) async throws -> Credential? {
        let stored = try await store.credential(for: scope)
        if let explicit = request.options.credential, stored != explicit { return nil }
        return stored
    }

    /// Answers a 401: returns the `Authorization` value for the next attempt.
    /// - Throws: ``ClientError/Code/authenticationFailed`` when no usable credential is left.
    func answerChallenge(_ response: Response, for request: Request, state: inout State) async throws -> String {
        resetIfOriginChanged(for: request.url, state: &state)
        guard let origin = Origin(request.url) else { throw failure("the URL has no host") }
        state.origin = origin
        let challenges = ChallengeParser.challenges(in: response.headerFields[values: .wwwAuthenticate])
        guard let challenge = challenges.first(where: { Self.supportedSchemes.contains($0.scheme) }) else {
            let offered = challenges.map(\.scheme.name).joined(separator: ", ")
            throw failure("the server offers no supported scheme (\(offered.isEmpty ? "none" : offered))")
        }
        let scope = CredentialScope(scheme: origin.scheme, host: origin.host, port: origin.port,
                                    realm: challenge.parameters["realm"])
        if let rejected = state.credential {
            state.rejected.insert(rejected)
            if state.source == .store, let storedScope = state.scope {
                try await store.removeCredential(for: storedScope)
                if storedScope != scope { try await store.removeCredential(for: scope) }
            }
        }
        state.wasChallenged = true
        for source in [Source.store, .url, .request, .handler] {
            guard let credential = try await candidate(from: source, scope: scope, challenge: challenge,
                                                       request: request, state: state),
                !state.rejected.contains(credential)
            else { continue }
            state.credential = credential
            state.source = source
            state.scope = scope
            return BasicAuthentication.authorization(for: credential)
        }
        throw failure(state.rejected.isEmpty ? "no credentials for \(scope)" : "credentials rejected for \(scope)")
    }

    /// Remembers a credential that led to a non-401 response.
    func succeeded(for request: Request, state: State) async throws {
        guard request.options.usesCredentialStore, let credential = state.credential, var scope = state.scope,
            state.source != .store
        else { return }
        if !state.wasChallenged { scope.realm = nil }  // pre-emptive Basic: the realm is unknown
        try await store.save(credential, for: scope)
    }

    private func candidate(
        from source: Source,
        scope: CredentialScope,
        challenge: ChallengeParser.Challenge,
        request: Request,
        state: State
    ) async throws -> Credential? {
        switch source {
        case .store:
            return request.options.usesCredentialStore ? try await storedCredential(for: scope, request: request) : nil
        case .url:
            guard let user = request.url.user(percentEncoded: false) else { return nil }
            return Credential(user: user, password: request.url.password(percentEncoded: false) ?? "")
        case .request:
            return request.options.credential
        case .handler:
            guard let handler else { return nil }
            let challenge = AuthenticationChallenge(
                scheme: challenge.scheme, parameters: challenge.parameters, scope: scope, url: request.url,
                failureCount: state.rejected.count)
            return try await handler(challenge)
        }
    }

    /// Forgets the state when `url` has another origin than the one it was built for. An empty state has
    /// nothing to forget (every path that fills it records the origin), so it costs no URL parsing.
    private static func basicCredential(of request: Request) -> Credential? {
        request.options.authenticationScheme == .basic ? request.options.credential : nil
    }

    /// Whether the request uses the store and the store may hold a credential (the default store says when it
    /// is empty).
    private func mayAskStore(for request: Request) -> Bool {
        request.options.usesCredentialStore && !((store as? SessionCredentialStore)?.isEmpty ?? false)
    }

    private func resetIfOriginChanged(for url: URL, state: inout State) {
        guard !state.isEmpty else { return }
        let origin = Origin(url)
        if state.origin != origin { state = State(origin: origin) }
    }

    private func failure(_ message: String) -> ClientError {
        ClientError(.authenticationFailed, stage: .credentials, message: "Authentication needed: \(message)")
    }
}
