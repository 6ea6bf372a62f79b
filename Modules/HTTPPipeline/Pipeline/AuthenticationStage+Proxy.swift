import HTTPCore

/// The 407 path: a proxy's challenge is answered like a server's, with the proxy's own scope and state, and the
/// answer goes to the transport only in ``RequestContext/proxyAuthorization``, never as a header field, so a
/// `Proxy-Authorization` the pipeline made can never reach an origin.
extension AuthenticationStage {
    /// Answers a 407 from the proxy the response came through (``Response/route``).
    /// - Parameters:
    ///   - response: The 407 response.
    ///   - request: The request the proxy refused.
    ///   - state: The request's proxy state; reset when another proxy challenges.
    /// - Returns: The authorization for the next attempt, for that proxy only.
    /// - Throws: ``ClientError/Code/authenticationFailed`` when the response did not come through a proxy or no
    ///   usable credential is left; the message names the proxy, never the credential.
    func answerProxyChallenge(
        _ response: Response,
        for request: Request,
        state: inout State
    ) async throws -> ProxyAuthorization {
        let route = response.route
        guard !route.isDirect else {
            throw Self.failure("Proxy authentication needed", "a 407 came over a direct connection, not from a proxy")
        }
        if let proxy = state.proxy, !proxy.isSameProxy(as: route) { state = State() }
        state.proxy = route
        let value = try await answer(
            response.headerFields[values: .proxyAuthenticate], scope: CredentialScope(proxy: route),
            sources: Self.proxySources, request: request, state: &state)
        return ProxyAuthorization(proxy: route, value: value)
    }

    /// Remembers the proxy credential in use once a response other than 407 came through the same proxy.
    /// - Parameters:
    ///   - response: A response that is not a 407.
    ///   - request: The request.
    ///   - state: The request's proxy state.
    /// - Throws: What a store throws.
    func proxySucceeded(_ response: Response, for request: Request, state: inout State) async throws {
        guard let proxy = state.proxy, proxy.isSameProxy(as: response.route) else { return }
        try await remember(for: request, state: &state)
    }

    /// Whether the proxy state holds a credential not yet saved; the pipeline skips the async call otherwise.
    static func needsSaving(_ state: State) -> Bool {
        state.credential != nil && !state.isSaved
    }
}
