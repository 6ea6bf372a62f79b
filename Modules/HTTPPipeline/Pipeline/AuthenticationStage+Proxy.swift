import HTTPCore

/// The 407 path: a proxy's challenge is answered like a server's, with the proxy's own scope and state, and the
/// answer goes to the transport only in ``RequestContext/proxyAuthorization``, never as a header field, so a
/// `Proxy-Authorization` the pipeline made can never reach an origin.
extension AuthenticationStage {
    /// Answers a 407 from the proxy the response came through (``Response/route``): picks the proxy credential and
    /// negotiation; ``proxyAuthorization(for:state:)`` then makes each hop's value.
    /// - Parameters:
    ///   - response: The 407 response.
    ///   - request: The request the proxy refused.
    ///   - state: The request's proxy state; reset when another proxy challenges.
    /// - Throws: ``ClientError/Code/authenticationFailed`` when the response did not come through a proxy or no
    ///   usable credential is left; the message names the proxy, never the credential.
    func answerProxyChallenge(
        _ response: Response,
        for request: Request,
        state: inout State
    ) async throws {
        let route = response.route
        guard !route.isDirect else {
            throw Self.failure("Proxy authentication needed", "a 407 came over a direct connection, not from a proxy")
        }
        if let proxy = state.proxy, !proxy.isSameProxy(as: route) { state = State() }
        state.proxy = route
        state.route = route
        state.connectionID = response.connectionID
        try await answer(
            response.headerFields[values: .proxyAuthenticate], scope: CredentialScope(proxy: route),
            sources: Self.proxySources, request: request, state: &state)
        guard state.negotiation != nil else {
            throw Self.failure("Proxy authentication needed", "no credentials for \(CredentialScope(proxy: route))")
        }
    }

    /// The `Proxy-Authorization` for the next hop from the running proxy negotiation: a Digest value is made
    /// for each request (its own `nc` and `uri`), a Basic one stays the same.
    /// - Parameters:
    ///   - request: The hop about to be sent.
    ///   - state: The request's proxy state.
    /// - Returns: The authorization, or `nil` without a negotiation.
    /// - Throws: What the negotiation throws.
    func proxyAuthorization(for request: Request, state: State) throws -> ProxyAuthorization? {
        guard let negotiation = state.negotiation, let proxy = state.proxy else { return nil }
        if state.isEstablished && negotiation.isConnectionBound { return nil }  // the connection is authenticated
        let view = Self.view(of: request, route: proxy, forProxy: true)
        return ProxyAuthorization(proxy: proxy, value: try negotiation.authorization(for: view))
    }

    /// Remembers the proxy credential in use once a response other than 407 came through the same proxy.
    /// - Parameters:
    ///   - response: A response that is not a 407.
    ///   - request: The request.
    ///   - state: The request's proxy state.
    /// - Throws: What a store throws.
    func proxySucceeded(_ response: Response, for request: Request, state: inout State) async throws {
        guard let proxy = state.proxy, proxy.isSameProxy(as: response.route) else { return }
        state.negotiationSteps = 0  // the cap counts challenges in a row; an accepted hop ends the row
        if state.negotiation?.isConnectionBound == true { state.isEstablished = true }
        try await remember(for: request, state: &state)
    }

    /// Whether the proxy state holds a credential not yet saved; the pipeline skips the async call otherwise.
    static func needsSaving(_ state: State) -> Bool {
        state.credential != nil && !state.isSaved
    }

    /// The connection the next hop should go on: the one that carried the challenge of a connection-bound
    /// negotiation (NTLM authenticates a connection, not a request), else `nil`.
    static func boundConnection(_ server: State, _ proxy: State) -> UInt64? {
        if let negotiation = server.negotiation, negotiation.isConnectionBound { return server.connectionID }
        if let negotiation = proxy.negotiation, negotiation.isConnectionBound { return proxy.connectionID }
        return nil
    }
}
