import FoundationEssentials
import HTTPCore
import Logging

/// Carries one request from the caller's ``Request`` to its final response: prepares each hop's headers,
/// sends it through the middleware and transport, and applies the redirect, cookie, authentication, cache and
/// retry rules until a response is final.
struct RequestPipeline: Sendable {
    let client: Client

    /// Runs the request and hands the final response to `consume`, which reads its body.
    ///
    /// The loop is a short I/O shell around ``HopState``, which holds what the request has gathered and decides
    /// what each response means. A request pays only for what its client has: without a cache no lookup runs,
    /// without middleware the transport is called directly, without cookies, credentials or body compression the
    /// hop's header fields are added without waiting.
    ///
    /// This is also the one retry loop (ASIHTTPRequest's `numberOfTimesToRetryOnTimeout`): a timeout while waiting
    /// for a head or while `consume` reads the body sends the current hop again, with the redirects, cookies and
    /// credentials it has gathered, until the request's retries run out. `consume` that returns the response
    /// unread (``Client/stream(_:)``) leaves later body timeouts to its caller.
    func run<Result>(
        _ request: Request,
        id: RequestID,
        originalURL: URL,
        events: PipelineEvents,
        consume: (StreamingResponse) async throws -> Result
    ) async throws -> Result {
        try Self.validate(request.url)
        let logger = Self.logger(client.configuration.logger, id: id)
        let relay = client.progress == nil && request.options.progress == nil
            ? nil : ProgressRelay.make(requestID: id, sinks: [client.progress, request.options.progress])
        var context = RequestContext(requestID: id, progress: relay, bandwidth: client.bandwidth,
                                     bandwidthLimit: request.options.maxBandwidthPerSecond, logger: logger)
        let run = RunContext(
            id: id, originalURL: originalURL, events: events, logger: logger, client: client.storage,
            usesCache: client.cache != nil)
        var state = HopState(request, looksUpCache: run.usesCache, retries: try retries(for: request))

        Self.started(request, run)

        while true {
            if state.retries?.pendingWait != nil { try await state.waitBeforeRetrying() }  // the policy's backoff
            if let hsts = client.hsts {  // HSTS: http to a known host goes out as https
                state.upgrade(to: try await HSTSStage.upgraded(state.current, store: hsts))
            }
            var hop = state.nextHop
            if needsWaitingToPrepare(hop, authentication: run.client.authenticationStage, state: state) {
                try await prepare(
                    &hop, authentication: run.client.authenticationStage, authState: &state.authentication)
            } else {
                prepareWithoutWaiting(&hop)
            }
            try Self.authorizeConnection(&context, for: hop, state: state, run.client.authenticationStage)
            var cachedResponse: Response?
            if run.usesCache {
                switch try await consultCache(for: &hop, state: &state, run) {
                case .answer(let response):
                    cachedResponse = response
                case .notCached:
                    return try await deliver(CacheStage.notCachedResponse(), fromCache: false, state: state, run,
                                             consume: consume)
                case .network:
                    break
                }
            }
            var response: Response
            let fromCache = cachedResponse != nil
            let requestTime = run.usesCache ? Self.now(run) : Date.distantPast
            if let cachedResponse {
                response = cachedResponse
            } else {
                try Self.beginAttempt(hop, state: &state, relay: relay)
                do {
                    response = try await send(hop, context: context)
                    context.resendCount += 1  // the next attempt is a resend
                } catch {
                    context.resendCount += 1
                    if state.retrying(after: error) {
                        Self.logRetry(state, logger)
                        continue
                    }
                    guard run.usesCache, !Self.isCancellation(error),
                        let fallback = try await answerAfterFailure(error, state: &state, run)
                    else { throw error }
                    return try await deliver(fallback, fromCache: true, state: state, run, consume: consume)
                }
            }
            Self.received(&response, for: hop, fromCache: fromCache, state: &state, relay: relay, run)
            if !fromCache {
                if run.usesCache { try await invalidate(after: response, for: hop, run) }
                if let hsts = client.hsts { try await HSTSStage.record(response, for: hop, store: hsts) }
            }
            // A proxy's own challenge is not the origin's answer: its cookies are never stored for the origin.
            let isProxyChallenge = response.status.code == 407 && response.isFromProxy
            let cookies = isProxyChallenge || fromCache ? [] : Self.cookies(
                in: response, from: hop, publicSuffixes: client.configuration.publicSuffixes)
            if state.current.options.usesCookieStore, !cookies.isEmpty {
                try await store(cookies, from: hop)
            }

            // The retry policy: a transient status (503, 429, ...) is sent again after its wait.
            if !fromCache, state.retries != nil,
                state.retrying(afterStatus: response.status, retryAfter: response.headerFields[.retryAfter])
            {
                await response.body.discard()
                Self.logRetry(state, logger)
                continue
            }
            let decision: HopDecision
            do {
                decision = try state.next(
                    afterStatus: response.status, location: response.headerFields[.location],
                    isFromProxy: response.isFromProxy, fromCache: fromCache)
            } catch {
                await response.body.discard()
                throw error
            }
            // One call of `consume` for every final response (each call site would keep its own slots for the
            // response and the result in this frame); only a response from the network is sent again on a timeout.
            var revalidated: StreamingResponse?
            if decision != HopDecision(action: .deliver) {
                switch try await settle(decision, response: response, hop: hop, cookies: cookies,
                                        requestTime: requestTime, state: &state, run) {
                case .sendNext:
                    continue
                case .deliver:
                    break
                case .revalidated(let response):
                    revalidated = response
                }
            }
            let final: StreamingResponse
            if let revalidated {
                final = revalidated
            } else if fromCache {
                final = Self.final(response, body: response.body, cookies: [], fromCache: true, state: state, run)
            } else {
                var body = response.body
                var storeDecoding: CachingBodySource?
                if run.usesCache {
                    (body, storeDecoding) = try await storing(response, for: hop, requestTime: requestTime, run)
                }
                final = Self.final(
                    response, body: body, relay: relay, storeDecoding: storeDecoding, cookies: cookies,
                    fromCache: false, state: state, run)
            }
            do {
                return try await consume(final)
            } catch {
                guard !final.info.isFromCache else { throw error }
                if state.retrying(after: error) {
                    Self.logRetry(state, logger)
                    continue
                }
                if run.usesCache, let error = error as? ClientError, error.code == .compressionFailed {
                    // The body was complete (and may have been committed to the cache) but does not inflate: a
                    // cache must not keep it, or every later hit would fail the same way.
                    await removeEntry(for: hop, run)
                }
                throw error
            }
        }
    }

    /// The retries of the request's policy (its own, or the client's); `nil` without one. Synchronous and kept out
    /// of `run`, so the policies' temporaries never widen its async frame.
    @inline(never)
    private func retries(for request: Request) throws -> RetryState? {
        guard let policy = request.options.retryPolicy ?? client.configuration.retryPolicy else { return nil }
        return try RetryState(policy: policy)
    }

    @inline(never)
    private static func logRetry(_ state: HopState, _ logger: Logger) {
        logger.debug("retrying", metadata: ["retry": "\(state.retryCount)",
                                            "wait": "\(state.retries?.pendingWait ?? .zero)"])
    }

    // The steps below run for every request between two awaits of `run`. They are synchronous and never inlined, so
    // that their temporaries (copies of the request, the head, the exchange's info) stay on the thread's stack instead
    // of taking slots in `run`'s async frame, which every request allocates (decision 0034).

    /// The client's logger, with the request's id as metadata when its handler can log it (setting metadata copies
    /// the logger's storage).
    @inline(never)
    private static func logger(_ logger: Logger, id: RequestID) -> Logger {
        guard !(logger.handler is SwiftLogNoOpLogHandler) else { return logger }
        var logger = logger
        logger[metadataKey: "request-id"] = "\(id)"
        return logger
    }

    /// Tells the events and the log that the request starts.
    @inline(never)
    private static func started(_ request: Request, _ run: RunContext) {
        run.events.started(request)
        run.logger.debug("started", metadata: ["method": "\(request.method)", "url": "\(redacted(request.url))"])
    }

    /// The cookies a response from the network sets for `hop` (none without a `Set-Cookie` field, with no work).
    @inline(never)
    private static func cookies(
        in response: Response, from hop: Request, publicSuffixes: (any PublicSuffixList)?
    ) -> [Cookie] {
        guard response.headerFields[.setCookie] != nil else { return [] }
        return SetCookieParser.cookies(in: response.headerFields, from: hop.cookieURL, publicSuffixes: publicSuffixes)
    }

    /// Sets the proxy's authorization (a handshake with the proxy in progress) and the connection the hop is bound
    /// to (a connection-bound handshake).
    @inline(never)
    private static func authorizeConnection(
        _ context: inout RequestContext, for hop: Request, state: HopState, _ authentication: AuthenticationStage
    ) throws {
        if state.proxyAuthentication.negotiation != nil {
            do {
                context.proxyAuthorization = try authentication.proxyAuthorization(
                    for: hop, state: state.proxyAuthentication)
            } catch {
                throw labelled(error, .credentials)
            }
        }
        context.preferredConnectionID = AuthenticationStage.boundConnection(
            state.authentication, state.proxyAuthentication)
    }

    /// Checks that the hop may be sent (a one-time body goes once) and tells the progress relay.
    @inline(never)
    private static func beginAttempt(_ hop: Request, state: inout HopState, relay: ProgressRelay?) throws {
        try state.bodyGuard.check(hop)
        relay?.beginAttempt(uploadLength: hop.body?.length)
        state.bodyGuard.sent(hop)
    }

    /// Gives the head its URL and reports it; for a response from the network, notes the version its origin speaks
    /// and tells the progress relay and the log.
    @inline(never)
    private static func received(
        _ response: inout Response, for hop: Request, fromCache: Bool, state: inout HopState, relay: ProgressRelay?,
        _ run: RunContext
    ) {
        response.head.url = hop.url  // the one head, from the transport's parser to the caller
        run.events.receivedHead(response.head)
        guard !fromCache else { return }
        state.bodyGuard.received(response.version, for: hop.url)
        relay?.responseArrived(expectedLength: hop.method == .head ? nil : response.body.expectedLength)
        run.logger.debug("response", metadata: ["status": "\(response.status.code)"])
    }

    /// The final response for `consume`: the head, `body` (its end reported to the progress relay) and what the
    /// exchange tells.
    @inline(never)
    private static func final(
        _ response: Response, body: ResponseBody, relay: ProgressRelay? = nil, storeDecoding: CachingBodySource? = nil,
        cookies: [Cookie], fromCache: Bool, state: HopState, _ run: RunContext
    ) -> StreamingResponse {
        var final = StreamingResponse(
            head: response.head, body: relay?.trackingEnd(of: body) ?? body,
            info: state.info(id: run.id, originalURL: run.originalURL,
                             connectionID: fromCache ? nil : response.connectionID, fromCache: fromCache,
                             cookies: cookies))
        final.storeDecoding = storeDecoding
        return final
    }

    /// Whether `error` is a `CancellationError`. Out of line: a cast to the standard library's resilient type inside
    /// `run` takes a task allocation for every call (decision 0034).
    @inline(never)
    private static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError
    }

    /// What stays the same for every hop of one request.
    private struct RunContext {
        let id: RequestID
        let originalURL: URL
        let events: PipelineEvents
        let logger: Logger
        /// The client's storage, which holds the stages (one reference instead of a copy of each). `run` reads
        /// them in place (`client.authenticationStage`); a copy of one, as ``authentication`` and ``cache`` make,
        /// takes a slot in the async frame of the function that makes it.
        let client: Client.Storage
        /// Whether the client has a cache (`run` asks this instead of copying the cache stage).
        let usesCache: Bool

        var authentication: AuthenticationStage { client.authenticationStage }
        var cache: CacheStage { client.cacheStage }
    }

    /// What ``settle(_:response:hop:cookies:requestTime:state:_:)`` leaves the loop to do.
    private enum Settled {
        /// Send ``HopState/nextHop``.
        case sendNext
        /// The response is final.
        case deliver
        /// The server confirmed the cached entry: this is the final response. Boxed (`indirect`), so that the loop's
        /// frame keeps a word for it, not a response.
        indirect case revalidated(StreamingResponse)
    }

    // The steps below run only for requests that use what they serve, and are kept out of `run` (`@inline(never)`)
    // so that their locals do not widen the async frame every request allocates.

    /// Looks the hop up in the cache when the URL is new, and makes a revalidation conditional.
    @inline(never)
    private func consultCache(
        for hop: inout Request, state: inout HopState, _ run: RunContext
    ) async throws -> CacheState.Lookup {
        var lookup = CacheState.Lookup.network
        if state.cache.needsLookup {
            state.cache.needsLookup = false
            lookup = try await state.cache.look(up: hop, in: run.cache)
            switch lookup {
            case .answer: run.logger.debug("answered from cache")
            case .notCached: run.logger.debug("not cached; not loading")
            case .network: break
            }
        }
        if case .network = lookup, let entry = state.cache.revalidating {
            CacheStage.addConditionalFields(from: entry.head, to: &hop)
        }
        return lookup
    }

    /// The time now, by the cache's clock.
    @inline(never)
    private static func now(_ run: RunContext) -> Date {
        run.cache.configuration.now()
    }

    /// Forgets what a response to an unsafe method makes stale.
    @inline(never)
    private func invalidate(after response: Response, for hop: Request, _ run: RunContext) async throws {
        try await run.cache.invalidate(after: response, for: hop)
    }

    /// Removes the hop's cache entry, if any.
    @inline(never)
    private func removeEntry(for hop: Request, _ run: RunContext) async {
        try? await run.cache.removeEntry(for: hop)
    }

    /// The stored response that answers after a failed load (`fallbackToCacheIfLoadFails`), or `nil`.
    @inline(never)
    private func answerAfterFailure(
        _ error: any Error, state: inout HopState, _ run: RunContext
    ) async throws -> Response? {
        guard let fallback = try await state.cache.answerAfterFailure(in: run.cache) else { return nil }
        run.logger.debug("load failed; answered from cache", metadata: ["error": "\(error)"])
        return fallback
    }

    /// The final response's body as the cache stores it, and the cache writer that decodes it for the store, which
    /// the reader shares when it decodes too (``DecodingPlan``).
    @inline(never)
    private func storing(
        _ response: Response, for hop: Request, requestTime: Date, _ run: RunContext
    ) async throws -> (ResponseBody, CachingBodySource?) {
        let timing = CacheFreshness.Timing(requestTime: requestTime, responseTime: run.cache.configuration.now())
        let body = try await run.cache.body(of: response, for: hop, timing: timing)
        guard let source = body.source as? CachingBodySource, source.decodes else { return (body, nil) }
        return (body, source)
    }

    @inline(never)
    private func store(_ cookies: [Cookie], from hop: Request) async throws {
        do {
            try await client.cookies.store(cookies, receivedFrom: hop.cookieURL)
        } catch {
            throw labelled(error, .cookies)
        }
    }

    /// Carries out a decision other than plain delivery: saves the credentials that worked, answers a challenge,
    /// follows a redirect, or refreshes a revalidated cache entry.
    @inline(never)
    private func settle(
        _ decision: HopDecision, response: Response, hop: Request, cookies: [Cookie], requestTime: Date,
        state: inout HopState, _ run: RunContext
    ) async throws -> Settled {
        let current = state.current
        let authentication = run.authentication
        if decision.savesProxyCredential {
            try await staged(.credentials) {
                try await authentication.proxySucceeded(response, for: current, state: &state.proxyAuthentication)
            }
        }
        if decision.savesCredential {
            try await staged(.credentials) {
                try await authentication.succeeded(for: current, state: &state.authentication)
            }
        }
        switch decision.action {
        case .answerProxyChallenge:
            run.logger.debug("proxy challenged", metadata: ["proxy": "\(response.route)"])
            guard try await answering(current, {
                try await authentication.answerProxyChallenge(response, for: current, state: &state.proxyAuthentication)
            }) != nil else { return .deliver }
        case .answerChallenge:
            run.logger.debug("challenged", metadata: ["url": "\(Self.redacted(hop.url))"])
            guard try await answering(current, {
                try await authentication.answerChallenge(response, for: current, state: &state.authentication)
            }) != nil else { return .deliver }
        case .sendAgain:
            break
        case .redirect:
            await response.body.discard()
            run.logger.debug("redirect", metadata: ["status": "\(response.status.code)",
                                                    "to": "\(Self.redacted(state.current.url))"])
            run.events.willRedirect(state.current.url)
            return .sendNext
        case .revalidate(let entry):
            await response.body.discard()
            // The body first: it is the one committed with the looked-up head, even if the key was replaced since.
            guard let body = try await CacheStage.open(entry) else {
                state.revalidationLost()  // removed since the lookup: ask again without conditions
                return .sendNext
            }
            let timing = CacheFreshness.Timing(requestTime: requestTime, responseTime: run.cache.configuration.now())
            let refreshed = try await run.cache.revalidated(entry.head, by: response, for: current, timing: timing)
            state.cache.outcome = .revalidated
            var cached = run.cache.response(from: refreshed, body: body)
            cached.head.version = response.version
            cached.head.url = current.url
            return .revalidated(StreamingResponse(
                head: cached.head, body: cached.body,
                info: state.info(id: run.id, originalURL: run.originalURL, connectionID: response.connectionID,
                                 fromCache: true, cookies: cookies)))
        case .deliver:
            return .deliver
        }
        await response.body.discard()
        return .sendNext
    }

    /// Hands a response from the cache (or the 504 of `dontLoad`) to `consume`.
    @inline(never)
    private func deliver<Result>(
        _ response: Response, fromCache: Bool, state: HopState, _ run: RunContext,
        consume: (StreamingResponse) async throws -> Result
    ) async throws -> Result {
        var head = response.head
        head.url = state.current.url
        run.events.receivedHead(head)
        return try await consume(StreamingResponse(
            head: head, body: response.body,
            info: state.info(id: run.id, originalURL: run.originalURL, connectionID: nil, fromCache: fromCache,
                             cookies: [])))
    }

    /// Runs a challenge's answer; `nil` when no credential is left and the request asks for the unanswered
    /// challenge as its response (``RequestOptions/failsOnUnansweredChallenge`` off), which then goes on as the
    /// final response.
    private func answering<T>(_ request: Request, _ body: () async throws -> T) async throws -> T? {
        do {
            return try await staged(.credentials, body)
        } catch let error as ClientError
            where error.code == .authenticationFailed && !request.options.failsOnUnansweredChallenge
        {
            return nil
        }
    }

    /// Sends one hop through the middleware chain, then the transport. Each link names its own stage: an error a
    /// middleware throws itself is reported as that middleware's (``ClientError/Code/middlewareFailed`` when it
    /// is not a ``ClientError``), and a transport error passes through the middleware with the transport's stage.
    private func send(_ request: Request, context: RequestContext) async throws -> Response {
        if client.middleware.isEmpty {
            do {
                return try await client.transport.send(request, context: context)
            } catch {
                throw labelled(error, .transport)
            }
        }
        return try await sendThroughMiddleware(request, context: context)
    }

    @inline(never)
    private func sendThroughMiddleware(_ request: Request, context: RequestContext) async throws -> Response {
        let transport = client.transport
        var next: @Sendable (Request, RequestContext) async throws -> Response = { request, context in
            try await staged(.transport) { try await transport.send(request, context: context) }
        }
        for middleware in client.middleware.reversed() {
            let inner = next
            next = { request, context in
                try await staged(.middleware(String(describing: type(of: middleware)))) {
                    try await middleware.intercept(request, context: context, next: inner)
                }
            }
        }
        return try await next(request, context)
    }

    static func validate(_ url: URL) throws {
        // The common URL first: a lower-case scheme and a host with nothing to decode, checked without building
        // an `Origin` (which lower-cases and percent-decodes copies of both).
        if let scheme = url.scheme, scheme == "http" || scheme == "https",
            let host = url.host(percentEncoded: true), !host.isEmpty, !host.utf8.contains(UInt8(ascii: "%"))
        {
            return
        }
        if let origin = Origin(url), origin.scheme == "http" || origin.scheme == "https" { return }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ClientError(.invalidRequest, stage: .pipeline, message: "Unable to create request (bad url?): "
                + "only http and https URLs are supported")
        }
        throw ClientError(.invalidRequest, stage: .pipeline, message: "Unable to create request (bad url?): no host")
    }

    /// The URL without its user and password, for logs and errors.
    static func redacted(_ url: URL) -> String {
        url.removingUserInfo()?.absoluteString ?? "<url>"
    }
}
