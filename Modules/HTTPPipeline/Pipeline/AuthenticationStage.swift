import FoundationEssentials
import HTTPCore

/// The challenge loop for 401 (the origin server) and 407 (a proxy): which credential to try next, and what to
/// remember or forget afterwards. A request keeps one ``State`` for its server and one for its proxy, so both can
/// challenge the same request.
///
/// Server sources, in ASIHTTPRequest's order (asi-features.md §9): the session store (when the request uses it),
/// the URL's `user:password`, the request's ``RequestOptions/credential``, the persistent store (only when the
/// request asks, ``RequestOptions/usesPersistentCredentialStore``), then the client's authentication handler.
/// Proxy sources: the route's own credential, the session store, ``RequestOptions/proxyCredential``, the persistent
/// store when asked, then the handler with a proxy challenge. A rejected credential is never tried again for the
/// request and is removed from the session store; it is removed from the persistent store only when it came from
/// there and the request asked for persistence. When no source is left the request fails with
/// ``ClientError/Code/authenticationFailed``.
///
/// Only Basic is answered today; a scheme is added by teaching ``authorization(for:)`` to answer it, the loop
/// stays the same.
struct AuthenticationStage: Sendable {
    /// Where the credential being used came from.
    enum Source: Sendable, Equatable {
        case route, store, url, request, persistent, handler
    }

    /// One request's authentication state for its server or its proxy; the server's is reset when a redirect
    /// changes the origin, the proxy's when another proxy challenges.
    struct State: Sendable {
        var credential: Credential?
        var source: Source?
        var scope: CredentialScope?
        var rejected: Set<Credential> = []
        var wasChallenged = false
        var isSaved = false
        var origin: Origin?
        var proxy: ProxyRoute?

        /// Whether nothing is remembered yet; such a state needs no reset when the origin changes.
        var isEmpty: Bool {
            credential == nil && source == nil && scope == nil && rejected.isEmpty && !wasChallenged
        }
    }

    let store: any CredentialStore
    let persistentStore: (any CredentialStore)?
    let handler: (@Sendable (AuthenticationChallenge) async throws -> Credential?)?

    static let supportedSchemes: [AuthenticationScheme] = [.basic]
    static let serverSources: [Source] = [.store, .url, .request, .persistent, .handler]
    static let proxySources: [Source] = [.route, .store, .request, .persistent, .handler]

    /// Whether ``preemptiveAuthorization(for:state:)`` can return a value: `false` for an empty state, no
    /// request credential and a store that knows it is empty, so the pipeline skips the async call.
    func mayAuthorizePreemptively(_ request: Request, state: State) -> Bool {
        !state.isEmpty || request.options.presentsCredentialsBeforeChallenge
            && (Self.basicCredential(of: request) != nil || mayAskStore(for: request))
    }

    /// The `Authorization` value to send before any challenge, if any. The persistent store is never asked here
    /// (ASIHTTPRequest never sends Keychain credentials pre-emptively).
    func preemptiveAuthorization(for request: Request, state: inout State) async throws -> String? {
        resetIfOriginChanged(for: request.url, state: &state)
        if let credential = state.credential, state.wasChallenged || state.source == .request {
            return Self.authorization(for: credential)
        }
        guard request.options.presentsCredentialsBeforeChallenge else { return nil }
        let requestCredential = Self.basicCredential(of: request)
        guard requestCredential != nil || mayAskStore(for: request), let origin = Origin(request.url) else {
            return nil
        }
        let scope = CredentialScope(scheme: origin.scheme, host: origin.host, port: origin.port)
        let credential: Credential
        let source: Source
        if let requestCredential {
            (credential, source) = (requestCredential, .request)
        } else if let stored = try await storedCredential(in: store, for: scope, explicit: request.options.credential) {
            (credential, source) = (stored, .store)
        } else {
            return nil
        }
        state.credential = credential
        state.source = source
        state.scope = scope
        state.origin = origin
        state.isSaved = false
        return Self.authorization(for: credential)
    }

    /// Answers a 401: returns the `Authorization` value for the next attempt.
    /// - Throws: ``ClientError/Code/authenticationFailed`` when no usable credential is left.
    func answerChallenge(_ response: Response, for request: Request, state: inout State) async throws -> String {
        resetIfOriginChanged(for: request.url, state: &state)
        guard let origin = Origin(request.url) else {
            throw Self.failure("Authentication needed", "the URL has no host")
        }
        state.origin = origin
        return try await answer(
            response.headerFields[values: .wwwAuthenticate],
            scope: CredentialScope(scheme: origin.scheme, host: origin.host, port: origin.port),
            sources: Self.serverSources, request: request, state: &state)
    }

    /// Remembers a credential that led to a response other than 401.
    func succeeded(for request: Request, state: inout State) async throws {
        try await remember(for: request, state: &state)
    }

    /// The `Authorization` (or `Proxy-Authorization`) value for a credential in the supported scheme.
    static func authorization(for credential: Credential) -> String {
        BasicAuthentication.authorization(for: credential)
    }

    private static func basicCredential(of request: Request) -> Credential? {
        request.options.authenticationScheme == .basic ? request.options.credential : nil
    }

    /// Whether the request uses the session store and the store may hold a credential.
    private func mayAskStore(for request: Request) -> Bool {
        request.options.usesCredentialStore && !store.isKnownEmpty
    }

    /// Forgets the state when `url` has another origin than the one it was built for. An empty state has
    /// nothing to forget (every path that fills it records the origin), so it costs no URL parsing.
    private func resetIfOriginChanged(for url: URL, state: inout State) {
        guard !state.isEmpty else { return }
        let origin = Origin(url)
        if state.origin != origin { state = State(origin: origin) }
    }
}
