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
    /// This is the one retry loop (ASIHTTPRequest's `numberOfTimesToRetryOnTimeout`): a timeout while waiting
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
        var logger = client.configuration.logger
        logger[metadataKey: "request-id"] = "\(id)"
        let relay = ProgressRelay.make(requestID: id, sinks: [client.progress, request.options.progress])
        var context = RequestContext(requestID: id, progress: relay, bandwidth: client.bandwidth,
                                     bandwidthLimit: request.options.maxBandwidthPerSecond, logger: logger)
        let authentication = AuthenticationStage(
            store: client.credentials, persistentStore: client.persistentCredentials,
            handler: client.configuration.authenticationHandler, authenticators: client.authenticators,
            sessions: client.authenticationSessions)
        let cache = CacheStage(store: client.cache, configuration: client.configuration.cache, codecs: client.codecs)

        var current = BodyMethodRule.applied(to: request)
        var redirectCount = 0
        var retryCount = 0
        var authState = AuthenticationStage.State()
        var proxyAuthState = AuthenticationStage.State()
        var cacheState = CacheState()
        var bodyGuard = BodyResendGuard()
        // RETRY POLICY (RetryState.swift): transient statuses and errors under the request's RetryPolicy.
        var retries = try RetryState(policy: request.options.retryPolicy ?? client.configuration.retryPolicy)
        func info(connectionID: UInt64?, fromCache: Bool, cookies: [Cookie]) -> ExchangeInfo {
            var info = ExchangeInfo(
                requestID: id, originalURL: originalURL, finalRequest: current, redirectCount: redirectCount,
                retryCount: retryCount, connectionID: connectionID, isFromCache: fromCache, responseCookies: cookies)
            info.cacheOutcome = cacheState.outcome
            return info
        }
        /// Hands a response from the cache (or the 504 of `dontLoad`) to `consume`.
        func deliver(_ response: Response, fromCache: Bool) async throws -> Result {
            let head = ResponseHead(status: response.status, version: response.version,
                                    headerFields: response.headerFields, url: current.url)
            events.receivedHead(head)
            return try await consume(StreamingResponse(
                head: head, body: response.body, info: info(connectionID: nil, fromCache: fromCache, cookies: [])))
        }

        events.started(request)
        logger.debug("started", metadata: ["method": "\(request.method)", "url": "\(Self.redacted(request.url))"])

        /// Whether `error` is a timeout the request may retry; counts the retry when it is.
        func retrying(after error: any Error) -> Bool {
            guard (error as? ClientError)?.code == .timedOut, retryCount < current.options.retriesOnTimeout,
                bodyGuard.mayRetry(current)
            else {
                return retryingByPolicy(.error(error))
            }
            retryCount += 1
            logger.debug("timed out; retrying", metadata: ["retry": "\(retryCount)"])
            return true
        }
        /// RETRY POLICY: whether the request's ``RetryPolicy`` sends the hop again after `outcome`; counts the retry.
        func retryingByPolicy(_ outcome: RetryOutcome) -> Bool {
            guard retries.schedules(after: outcome, for: current, mayResend: bodyGuard.mayRetry(current)) else {
                return false
            }
            retryCount += 1
            logger.debug("retrying", metadata: ["retry": "\(retryCount)", "wait": "\(retries.pendingWait ?? .zero)"])
            return true
        }

        // RequestOptions.withholdsBodyUntilChallenged: the first attempt probes with an empty body.
        var withholdsBody = current.options.withholdsBodyUntilChallenged && current.options.credential != nil
            && !current.options.presentsCredentialsBeforeChallenge && (current.body.map { $0.length != 0 } ?? false)
        while true {
            try await retries.waitIfScheduled()  // RETRY POLICY: the backoff chosen when the last attempt failed
            current = try await HSTSStage.upgraded(current, store: client.hsts)  // HSTS: http to a known host is https
            var hop = current
            if withholdsBody { hop.body = .bytes([]) }
            try await prepare(&hop, authentication: authentication, authState: &authState)
            if proxyAuthState.negotiation != nil {
                let request = hop
                context.proxyAuthorization = try await staged(.credentials) {
                    try authentication.proxyAuthorization(for: request, state: proxyAuthState)
                }
            }
            context.preferredConnectionID = AuthenticationStage.boundConnection(authState, proxyAuthState)
            var cachedResponse: Response?
            if cacheState.needsLookup {
                cacheState.needsLookup = false
                switch try await cacheState.look(up: hop, in: cache) {
                case .answer(let response):
                    logger.debug("answered from cache")
                    cachedResponse = response
                case .notCached:
                    logger.debug("not cached; not loading")
                    return try await deliver(CacheStage.notCachedResponse(), fromCache: false)
                case .network:
                    break
                }
            }
            if let entry = cacheState.revalidating { CacheStage.addConditionalFields(from: entry.head, to: &hop) }
            let response: Response
            let fromCache = cachedResponse != nil
            let requestTime = cache.configuration.now()
            if let cachedResponse {
                response = cachedResponse
            } else {
                try bodyGuard.check(hop)
                relay?.beginAttempt(uploadLength: hop.body?.length)
                bodyGuard.sent(hop)
                let attempt = context
                context.resendCount += 1
                do {
                    response = try await send(hop, context: attempt)
                } catch where retrying(after: error) {
                    continue
                } catch {
                    guard !(error is CancellationError),
                        let fallback = try await cacheState.answerAfterFailure(in: cache)
                    else { throw error }
                    logger.debug("load failed; answered from cache", metadata: ["error": "\(error)"])
                    return try await deliver(fallback, fromCache: true)
                }
            }
            let timing = CacheFreshness.Timing(requestTime: requestTime, responseTime: cache.configuration.now())
            let head = ResponseHead(status: response.status, version: response.version,
                                    headerFields: response.headerFields, url: hop.url)
            events.receivedHead(head)
            if !fromCache {
                bodyGuard.received(response.version, for: hop.url)
                relay?.responseArrived(expectedLength: hop.method == .head ? nil : response.body.expectedLength)
                logger.debug("response", metadata: ["status": "\(response.status.code)"])
                if cache.isEnabled { try await cache.invalidate(after: response, for: hop) }
                try await HSTSStage.record(response, for: hop, store: client.hsts)  // HSTS: Strict-Transport-Security
            }
            // A proxy's own challenge is not the origin's answer: its cookies are never stored for the origin.
            let isProxyChallenge = response.status.code == 407 && response.isFromProxy
            let cookies = isProxyChallenge || fromCache ? [] : SetCookieParser.cookies(
                in: response.headerFields, from: hop.cookieURL, publicSuffixes: client.configuration.publicSuffixes)
            if current.options.usesCookieStore, !cookies.isEmpty {
                try await staged(.cookies) { try await client.cookies.store(cookies, receivedFrom: hop.cookieURL) }
            }

            // RETRY POLICY: a transient status (503, 429, ...) is sent again after its wait.
            if !fromCache,
                retryingByPolicy(.status(response.status.code, retryAfter: response.headerFields[.retryAfter]))
            {
                await response.body.discard()
                continue
            }
            if isProxyChallenge {
                logger.debug("proxy challenged", metadata: ["proxy": "\(response.route)"])
                if try await answering(current, {
                    try await authentication.answerProxyChallenge(response, for: current, state: &proxyAuthState)
                }) != nil {
                    await response.body.discard()
                    continue
                }
            } else if AuthenticationStage.needsSaving(proxyAuthState) {
                try await staged(.credentials) {
                    try await authentication.proxySucceeded(response, for: current, state: &proxyAuthState)
                }
            }
            if withholdsBody, !isProxyChallenge {
                withholdsBody = false
                if (200..<300).contains(response.status.code) {  // no challenge: again, this time with the body
                    await response.body.discard()
                    continue
                }
            }
            if response.status.code == 401, !isProxyChallenge {
                logger.debug("challenged", metadata: ["url": "\(Self.redacted(hop.url))"])
                if try await answering(current, {
                    try await authentication.answerChallenge(response, for: current, state: &authState)
                }) != nil {
                    await response.body.discard()
                    continue
                }
            } else if authState.credential != nil, !isProxyChallenge {
                try await staged(.credentials) { try await authentication.succeeded(for: current, state: &authState) }
            }

            if current.options.followsRedirects,
                let next = try RedirectPolicy.nextRequest(
                    status: response.status.code, location: response.headerFields[.location], after: current)
            {
                await response.body.discard()
                redirectCount += 1
                guard redirectCount <= current.options.maxRedirects else {
                    throw ClientError(.tooManyRedirects, stage: .pipeline,
                                      message: "More than \(current.options.maxRedirects) redirects")
                }
                logger.debug("redirect", metadata: ["status": "\(response.status.code)",
                                                    "to": "\(Self.redacted(next.url))"])
                events.willRedirect(next.url)
                current = next
                cacheState = CacheState()
                continue
            }
            if fromCache {
                return try await consume(StreamingResponse(
                    head: head, body: response.body, info: info(connectionID: nil, fromCache: true, cookies: [])))
            }

            if response.status == .notModified, let entry = cacheState.revalidating {
                await response.body.discard()
                // The body first: it is the one committed with the looked-up head, even if the key was replaced since.
                guard let body = try await CacheStage.open(entry) else {
                    cacheState.revalidating = nil  // removed since the lookup: ask again without conditions
                    cacheState.fallback = nil
                    continue
                }
                let refreshed = try await cache.revalidated(entry.head, by: response, for: current, timing: timing)
                cacheState.outcome = .revalidated
                let cachedResponse = cache.response(from: refreshed, body: body)
                let head = ResponseHead(status: cachedResponse.status, version: response.version,
                                        headerFields: cachedResponse.headerFields, url: current.url)
                return try await consume(StreamingResponse(
                    head: head, body: cachedResponse.body,
                    info: info(connectionID: response.connectionID, fromCache: true, cookies: cookies)))
            }
            let body = try await cache.body(of: response, for: hop, timing: timing)
            let final = StreamingResponse(head: head, body: relay?.trackingEnd(of: body) ?? body,
                                          info: info(connectionID: response.connectionID, fromCache: false,
                                                     cookies: cookies))
            do {
                return try await consume(final)
            } catch where retrying(after: error) {
                continue
            } catch let error as ClientError where error.code == .compressionFailed {
                // The body was complete (and may have been committed to the cache) but does not inflate: a cache
                // must not keep it, or every later hit would fail the same way.
                try? await cache.removeEntry(for: hop)
                throw error
            }
        }
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

    /// Adds the automatic header fields for one hop: `User-Agent`, `Cookie`, `Authorization`, the
    /// `Accept-Encoding` and a resumed download's `Range`, and compresses
    /// the body when asked. Fields the caller set are kept.
    private func prepare(
        _ hop: inout Request,
        authentication: AuthenticationStage,
        authState: inout AuthenticationStage.State
    ) async throws {
        if hop.headerFields[.userAgent] == nil {
            hop.headerFields[.userAgent] = hop.options.userAgent ?? client.configuration.userAgent
        }
        var cookies = hop.options.requestCookies
        if hop.options.usesCookieStore, !client.cookies.isKnownEmpty {
            let url = hop.cookieURL
            cookies += try await staged(.cookies) { try await client.cookies.cookies(for: url) }
        }
        if !cookies.isEmpty {
            let header = cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
            hop.headerFields[.cookie] = hop.headerFields[.cookie].map { "\($0); \(header)" } ?? header
        }
        if hop.headerFields[.authorization] == nil, authentication.mayAuthorizePreemptively(hop, state: authState) {
            let request = hop
            if let value = try await staged(.credentials, {
                try await authentication.preemptiveAuthorization(for: request, state: &authState)
            }) {
                hop.headerFields[.authorization] = value
            }
        }
        try await ContentCoding.prepare(&hop, codecs: client.codecs)
        ResumeRange.apply(to: &hop)
    }

    /// Sends one hop through the middleware chain, then the transport. Each link names its own stage: an error a
    /// middleware throws itself is reported as that middleware's (``ClientError/Code/middlewareFailed`` when it
    /// is not a ``ClientError``), and a transport error passes through the middleware with the transport's stage.
    private func send(_ request: Request, context: RequestContext) async throws -> Response {
        let transport = client.transport
        if client.middleware.isEmpty {
            return try await staged(.transport) { try await transport.send(request, context: context) }
        }
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
