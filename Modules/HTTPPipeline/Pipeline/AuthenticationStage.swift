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
/// The wire format is an ``HTTPAuthenticator``'s: Basic and Bearer are built in, the client's
/// ``Client/authenticators`` add more (Digest and NTLM from the `HTTPAuthentication` plug-in). Of the challenges a
/// server offers, the strongest supported one is answered (or only the request's
/// ``RequestOptions/authenticationScheme`` when it names one); a repeated challenge of the scheme in use is first
/// offered to the running negotiation, which may go on with the same credential (a stale Digest nonce, NTLM's
/// second message).
struct AuthenticationStage: Sendable {
    /// Where the credential being used came from.
    enum Source: Sendable, Equatable {
        case route, store, url, request, persistent, handler, session
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
        /// The negotiation answering the last challenge (or sending up front).
        var negotiation: (any AuthenticationNegotiation)?
        /// The scheme of ``negotiation``.
        var scheme: AuthenticationScheme?
        /// The route the last challenge came over: it decides the request-target form Digest signs.
        var route: ProxyRoute?
        /// The connection the last challenge came on, for a connection-bound negotiation (NTLM).
        var connectionID: UInt64?
        /// Whether a connection-bound negotiation succeeded: that connection is authenticated, so later hops
        /// send nothing on it, and a new challenge (the connection was lost) starts a new handshake.
        var isEstablished = false
        /// How many challenges in a row the running negotiation went on from without a new credential (a Digest
        /// `stale=true`, NTLM's second message); see ``AuthenticationStage/maxNegotiationSteps``.
        var negotiationSteps = 0

        /// Whether nothing is remembered yet; such a state needs no reset when the origin changes.
        var isEmpty: Bool {
            credential == nil && source == nil && scope == nil && rejected.isEmpty && !wasChallenged
        }
    }

    let store: any CredentialStore
    let persistentStore: (any CredentialStore)?
    let handler: (@Sendable (AuthenticationChallenge) async throws -> Credential?)?
    /// Built-in and registered authenticators, strongest first.
    let authenticators: [any HTTPAuthenticator]
    let sessions: AuthenticationSessions?

    /// The most challenges in a row one credential's negotiation may go on from within one request (a Digest
    /// `stale=true` with a new nonce, NTLM's challenge message); one more fails the request, so that a server
    /// answering `stale=true` forever cannot keep it looping. Four covers every real handshake (NTLM needs one,
    /// a stale nonce one more).
    static let maxNegotiationSteps = 4

    static let serverSources: [Source] = [.store, .url, .request, .persistent, .handler]
    static let proxySources: [Source] = [.route, .store, .request, .persistent, .handler]

    init(
        store: any CredentialStore,
        persistentStore: (any CredentialStore)?,
        handler: (@Sendable (AuthenticationChallenge) async throws -> Credential?)?,
        authenticators: [any HTTPAuthenticator] = [],
        sessions: AuthenticationSessions? = nil
    ) {
        self.init(store: store, persistentStore: persistentStore, handler: handler,
                  ordered: Self.ordered(authenticators), sessions: sessions)
    }

    /// A stage whose authenticators are already in ``ordered(_:)``'s order: `Client` orders its own once, so a
    /// request does not build and sort the list again.
    init(
        store: any CredentialStore,
        persistentStore: (any CredentialStore)?,
        handler: (@Sendable (AuthenticationChallenge) async throws -> Credential?)?,
        ordered authenticators: [any HTTPAuthenticator],
        sessions: AuthenticationSessions?
    ) {
        self.store = store
        self.persistentStore = persistentStore
        self.handler = handler
        self.authenticators = authenticators
        self.sessions = sessions
    }

    /// The built-in Basic and Bearer authenticators with `authenticators` added (one per scheme, the later one
    /// winning), strongest first.
    static func ordered(_ authenticators: [any HTTPAuthenticator]) -> [any HTTPAuthenticator] {
        var all: [any HTTPAuthenticator] = [BasicAuthenticator(), BearerAuthenticator()]
        for authenticator in authenticators {
            all.removeAll { $0.scheme == authenticator.scheme }
            all.append(authenticator)
        }
        return all.sorted { $0.preference > $1.preference }
    }

    /// Whether ``preemptiveAuthorization(for:state:)`` can return a value: `false` for an empty state, no
    /// request credential and a store that knows it is empty, so the pipeline skips the async call.
    func mayAuthorizePreemptively(_ request: Request, state: State) -> Bool {
        !state.isEmpty || request.options.presentsCredentialsBeforeChallenge
            && (Self.upFrontCredential(of: request) != nil || mayAskStore(for: request))
    }

    /// The `Authorization` value to send before any challenge, if any. The persistent store is never asked here
    /// (ASIHTTPRequest never sends Keychain credentials pre-emptively).
    func preemptiveAuthorization(for request: Request, state: inout State) async throws -> String? {
        resetIfOriginChanged(for: request, state: &state)
        if let credential = state.credential, state.wasChallenged || state.source == .request
            || state.source == .session
        {
            if state.isEstablished, state.negotiation?.isConnectionBound == true { return nil }
            let view = Self.view(of: request, route: state.route)
            return try state.negotiation?.authorization(for: view) ?? Self.upFrontValue(for: credential)
        }
        guard request.options.presentsCredentialsBeforeChallenge else { return nil }
        let requestCredential = Self.upFrontCredential(of: request)
        guard requestCredential != nil || mayAskStore(for: request), let origin = Origin(request.url) else {
            return nil
        }
        let scope = CredentialScope(scheme: origin.scheme, host: origin.host, port: origin.port)
        let credential: Credential
        let source: Source
        var negotiation: (any AuthenticationNegotiation)?
        if let requestCredential {
            (credential, source) = (requestCredential, .request)
        } else if request.options.usesCredentialStore, let session = sessions?.entry(for: origin),
            request.options.credential == nil || request.options.credential == session.credential
        {
            (credential, source, negotiation) = (session.credential, .session, session.negotiation)
            state.scheme = session.scheme
        } else if let stored = try await storedCredential(in: store, for: scope, explicit: request.options.credential),
            mayGoUpFront(stored, at: origin)
        {
            (credential, source) = (stored, .store)
        } else {
            return nil
        }
        state.credential = credential
        state.source = source
        state.scope = scope
        state.origin = origin
        state.isSaved = source == .session
        state.negotiation = negotiation
        if let negotiation { return try negotiation.authorization(for: Self.view(of: request, route: nil)) }
        return Self.upFrontValue(for: credential)
    }

    /// Basic, or Bearer for a token.
    static func upFrontValue(for credential: Credential) -> String {
        credential.kind == .bearerToken
            ? BearerAuthenticator.authorization(for: credential) : BasicAuthentication.authorization(for: credential)
    }

    /// The scheme ``upFrontValue(for:)`` uses for `credential`.
    static func upFrontScheme(for credential: Credential) -> AuthenticationScheme {
        credential.kind == .bearerToken ? .bearer : .basic
    }

    /// Whether a stored credential may go up front (as Basic, or Bearer for a token): not when the pipeline saw
    /// another scheme (NTLM, Digest) accept it, whose credential waits for the challenge.
    private func mayGoUpFront(_ credential: Credential, at origin: Origin) -> Bool {
        guard let scheme = sessions?.acceptedScheme(of: credential, for: origin) else { return true }
        return scheme == Self.upFrontScheme(for: credential)
    }

    /// Answers a 401: picks the credential and negotiation for the next attempt, which
    /// ``preemptiveAuthorization(for:state:)`` then turns into the `Authorization` value.
    /// - Throws: ``ClientError/Code/authenticationFailed`` when no usable credential is left.
    func answerChallenge(_ response: Response, for request: Request, state: inout State) async throws {
        resetIfOriginChanged(for: request, state: &state)
        guard let origin = Origin(request.url) else {
            throw Self.failure("Authentication needed", "the URL has no host")
        }
        state.origin = origin
        state.route = response.route
        state.connectionID = response.connectionID
        try await answer(
            response.headerFields[values: .wwwAuthenticate],
            scope: CredentialScope(scheme: origin.scheme, host: origin.host, port: origin.port),
            sources: Self.serverSources, request: request, state: &state)
    }

    /// Remembers a credential that led to a response other than 401.
    func succeeded(for request: Request, state: inout State) async throws {
        let wasSaved = state.isSaved
        state.negotiationSteps = 0  // the cap counts challenges in a row; an accepted hop ends the row
        if state.negotiation?.isConnectionBound == true { state.isEstablished = true }
        try await remember(for: request, state: &state)
        if !wasSaved, request.options.usesCredentialStore, let origin = state.origin,
            let credential = state.credential
        {
            let scheme = state.negotiation == nil ? Self.upFrontScheme(for: credential) : state.scheme
            sessions?.accepted(credential, scheme: scheme ?? Self.upFrontScheme(for: credential), for: origin)
        }
        if !wasSaved, request.options.usesCredentialStore, state.wasChallenged, let origin = state.origin,
            let credential = state.credential, let negotiation = state.negotiation, let scheme = state.scheme
        {
            sessions?.keep(negotiation, scheme: scheme, credential: credential, for: origin)
        }
    }

    /// The credential a request sends before any challenge: its own when its scheme is Basic (ASIHTTPRequest's
    /// rule), or a bearer token.
    private static func upFrontCredential(of request: Request) -> Credential? {
        guard let credential = request.options.credential else { return nil }
        if credential.kind == .bearerToken { return credential }
        return request.options.authenticationScheme == .basic ? credential : nil
    }

    /// Whether the request uses the session store and the store may hold a credential.
    private func mayAskStore(for request: Request) -> Bool {
        request.options.usesCredentialStore && (!store.isKnownEmpty || sessions?.isEmpty == false)
    }

    /// Forgets the state when `url` has another origin than the one it was built for. An empty state has
    /// nothing to forget (every path that fills it records the origin), so it costs no URL parsing.
    /// The request's own credential stays with ``RequestOptions/keepsCredentialsOnRedirect`` (curl's
    /// `--location-trusted`): the scheme already picked is then sent up front to the redirect's origin.
    private func resetIfOriginChanged(for request: Request, state: inout State) {
        guard !state.isEmpty else { return }
        if request.options.keepsCredentialsOnRedirect, state.source == .request { return }
        let origin = Origin(request.url)
        if state.origin != origin { state = State(origin: origin) }
    }
}
