import FoundationEssentials
import HTTPCore

/// The part of the challenge loop that 401 and 407 share: pick a challenge, forget the rejected credential, try
/// the sources in order, and save what worked with the request's persistence intent.
extension AuthenticationStage {
    /// Picks the next credential and negotiation for the challenges in `values`: the running negotiation goes on
    /// when it can (a stale nonce, NTLM's second message), otherwise the rejected credential is forgotten and
    /// the sources are tried in order, each credential with the strongest offered scheme that can use it.
    /// - Parameters:
    ///   - values: The `WWW-Authenticate` or `Proxy-Authenticate` field values.
    ///   - base: The server's or the proxy's scope, without a realm.
    ///   - sources: The sources to try, in order.
    ///   - request: The request being answered.
    ///   - state: The server's or the proxy's state; holds the negotiation afterwards.
    /// - Throws: ``ClientError/Code/authenticationFailed`` when no usable credential is left, or what a store or
    ///   the handler throws.
    func answer(
        _ values: [String],
        scope base: CredentialScope,
        sources: [Source],
        request: Request,
        state: inout State
    ) async throws {
        let prefix = base.target == .proxy ? "Proxy authentication needed" : "Authentication needed"
        let challenges = ChallengeParser.challenges(in: values)
        let usable = usableChallenges(challenges, for: request, target: base.target)
        guard let strongest = usable.first else {
            let offered = challenges.map(\.scheme.name).joined(separator: ", ")
            let who = base.target == .proxy ? "the proxy \(base)" : "the server"
            throw Self.failure(prefix, "\(who) offers no supported scheme (\(offered.isEmpty ? "none" : offered))")
        }
        if restartsHandshake(usable, state: &state) { return }
        if let negotiation = state.negotiation, state.wasChallenged || state.source == .session,
            let scheme = state.scheme, let again = usable.first(where: { $0.scheme == scheme }),
            negotiation.proceed(after: again) == .continue
        {
            state.wasChallenged = true
            state.negotiationSteps += 1
            guard state.negotiationSteps <= Self.maxNegotiationSteps else {
                throw Self.failure(prefix, "\(scheme.name) negotiation went on for more than "
                    + "\(Self.maxNegotiationSteps) challenges with the same credential")
            }
            return
        }
        state.negotiationSteps = 0
        var scope = base
        scope.realm = strongest.realm
        if let rejected = state.credential {
            state.rejected.insert(rejected)
            try await forget(rejected, challengedScope: scope, request: request, state: state)
        }
        state.wasChallenged = true
        state.negotiation = nil
        for source in sources {
            guard let credential = try await candidate(from: source, scope: scope, challenge: strongest,
                                                       request: request, state: state),
                !state.rejected.contains(credential)
            else { continue }
            for challenge in usable {
                guard let authenticator = authenticator(for: challenge.scheme), authenticator.accepts(credential),
                    let negotiation = try? authenticator.negotiation(answering: challenge, with: credential)
                else { continue }
                state.credential = credential
                state.source = source
                scope.realm = challenge.realm
                state.scope = scope
                state.isSaved = false
                state.negotiation = negotiation
                state.scheme = challenge.scheme
                return
            }
            state.rejected.insert(credential)  // no offered scheme can use it
        }
        throw Self.failure(prefix, state.rejected.isEmpty ? "no credentials for \(scope)"
            : "credentials rejected for \(scope)")
    }

    /// A challenge after a connection-bound negotiation (NTLM) succeeded means the hop went on another
    /// connection (the authenticated one was closed): the same credential starts a new handshake there; it was not
    /// refused. Later challenges are judged as usual.
    /// - Returns: Whether `state` holds the new handshake.
    private func restartsHandshake(_ usable: [HTTPChallenge], state: inout State) -> Bool {
        guard state.isEstablished else { return false }
        state.isEstablished = false
        guard let negotiation = state.negotiation, negotiation.isConnectionBound, let scheme = state.scheme,
            let challenge = usable.first(where: { $0.scheme == scheme }), let credential = state.credential,
            let fresh = try? authenticator(for: scheme)?.negotiation(answering: challenge, with: credential)
        else { return false }
        state.negotiation = fresh
        state.wasChallenged = true
        return true
    }

    /// The offered challenges this client can answer, strongest first; only the request's own scheme when it
    /// names one other than Basic (Basic there means "send up front", ASIHTTPRequest's rule).
    func usableChallenges(
        _ challenges: [HTTPChallenge], for request: Request, target: CredentialScope.Target
    ) -> [HTTPChallenge] {
        let wanted = target == .proxy ? request.options.proxyAuthenticationScheme
            : request.options.authenticationScheme
        var usable: [(HTTPChallenge, Int)] = []
        for challenge in challenges {
            guard let authenticator = authenticator(for: challenge.scheme),
                wanted == nil || wanted == .basic && target == .server || wanted == challenge.scheme
            else { continue }
            usable.append((challenge, authenticator.preference))
        }
        return usable.enumerated().sorted { lhs, rhs in
            lhs.element.1 != rhs.element.1 ? lhs.element.1 > rhs.element.1 : lhs.offset < rhs.offset
        }.map(\.element.0)
    }

    /// The registered authenticator for a scheme.
    func authenticator(for scheme: AuthenticationScheme) -> (any HTTPAuthenticator)? {
        authenticators.first { $0.scheme == scheme }
    }

    /// Saves the credential in use once, after a response showed it was accepted: to the session store unless it
    /// came from there (and the request uses it), to the persistent store unless it came from there (and only
    /// when the request asks for persistence). A proxy route's own credential stays with its configuration.
    func remember(for request: Request, state: inout State) async throws {
        guard !state.isSaved, let credential = state.credential, var scope = state.scope else { return }
        state.isSaved = true
        guard state.source != .route else { return }
        if !state.wasChallenged { scope.realm = nil }  // pre-emptive Basic: the realm is unknown
        if request.options.usesCredentialStore, state.source != .store {
            try await store.save(credential, for: scope)
        }
        if request.options.usesPersistentCredentialStore, let persistentStore, state.source != .persistent {
            try await persistentStore.save(credential, for: scope)
        }
    }

    /// Removes a rejected credential: from the session store wherever it answers for the scopes involved (when the
    /// request uses that store), and from the persistent store only when it came from there and the request asked
    /// for persistence. A credential from any other source never removes a persistent one. A credential already
    /// accepted in this request (for another realm, before a redirect) is removed only for the realm that
    /// rejected it: it still works where it was accepted.
    private func forget(
        _ rejected: Credential,
        challengedScope: CredentialScope,
        request: Request,
        state: State
    ) async throws {
        var scopes = [challengedScope]
        if !state.isSaved {
            if let used = state.scope, used != challengedScope { scopes.append(used) }
            var realmless = challengedScope
            realmless.realm = nil
            if !scopes.contains(realmless) { scopes.append(realmless) }
        }
        if request.options.usesCredentialStore, !store.isKnownEmpty {
            try await remove(rejected, from: store, scopes: scopes)
        }
        if let origin = state.origin, challengedScope.target == .server { sessions?.drop(rejected, for: origin) }
        for scope in scopes { sessions?.gate.reject(rejected, for: scope) }
        if state.source == .persistent, request.options.usesPersistentCredentialStore, let persistentStore {
            try await remove(rejected, from: persistentStore, scopes: scopes)
        }
    }

    /// Removes each scope's entry whose answer is the rejected credential, and nothing else.
    private func remove(_ rejected: Credential, from store: any CredentialStore, scopes: [CredentialScope])
        async throws
    {
        for scope in scopes where try await store.credential(for: scope) == rejected {
            try await store.removeCredential(for: scope)
        }
    }

    private func candidate(
        from source: Source,
        scope: CredentialScope,
        challenge: HTTPChallenge,
        request: Request,
        state: State
    ) async throws -> Credential? {
        let isProxy = scope.target == .proxy
        let explicit = isProxy ? request.options.proxyCredential : request.options.credential
        switch source {
        case .route:
            return state.proxy?.credential
        case .store:
            guard request.options.usesCredentialStore else { return nil }
            return try await storedCredential(in: store, for: scope, explicit: explicit)
        case .url:
            guard !isProxy, let user = request.url.user(percentEncoded: false) else { return nil }
            return Credential(user: user, password: request.url.password(percentEncoded: false) ?? "")
        case .request:
            return explicit
        case .persistent:
            guard request.options.usesPersistentCredentialStore, let persistentStore else { return nil }
            return try await storedCredential(in: persistentStore, for: scope, explicit: explicit)
        case .session:
            return nil
        case .handler:
            guard let handler else { return nil }
            let challenge = AuthenticationChallenge(
                scheme: challenge.scheme, parameters: challenge.parameters, scope: scope, url: request.url,
                failureCount: state.rejected.count, proxy: isProxy ? state.proxy : nil)
            guard let gate = sessions?.gate else { return try await handler(challenge) }
            return try await gate.credential(for: scope, rejected: state.rejected) { try await handler(challenge) }
        }
    }

    /// A store's credential for the scope, unless the request brings a different one of its own: explicit
    /// credentials override stored ones, as in ASIHTTPRequest's session-store matching.
    func storedCredential(
        in store: any CredentialStore,
        for scope: CredentialScope,
        explicit: Credential?
    ) async throws -> Credential? {
        guard !store.isKnownEmpty else { return nil }
        let stored = try await store.credential(for: scope)
        if let explicit, stored != explicit { return nil }
        return stored
    }

    static func failure(_ prefix: String, _ message: String) -> ClientError {
        ClientError(.authenticationFailed, stage: .credentials, message: "\(prefix): \(message)")
    }
}
