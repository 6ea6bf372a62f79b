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
        let cache = CacheStage(store: client.cache)

        var current = BodyMethodRule.applied(to: request)
        var redirectCount = 0
        var retryCount = 0
        var authState = AuthenticationStage.State()
        var proxyAuthState = AuthenticationStage.State()
        var cached = cache.isEnabled ? try await cache.lookup(current) : nil
        func info(connectionID: UInt64?, fromCache: Bool, cookies: [Cookie]) -> ExchangeInfo {
            ExchangeInfo(requestID: id, originalURL: originalURL, finalRequest: current, redirectCount: redirectCount,
                         retryCount: retryCount, connectionID: connectionID, isFromCache: fromCache,
                         responseCookies: cookies)
        }

        events.started(request)
        logger.debug("started", metadata: ["method": "\(request.method)", "url": "\(Self.redacted(request.url))"])
        if let entry = cached, CacheStage.answersWithoutAsking(entry.head, at: Date()) {
            if let body = try await CacheStage.open(entry) {
                logger.debug("answered from cache")
                let response = CacheStage.response(from: entry.head, body: body)
                let head = ResponseHead(status: response.status, version: response.version,
                                        headerFields: response.headerFields, url: current.url)
                events.receivedHead(head)
                return try await consume(StreamingResponse(head: head, body: response.body,
                                                           info: info(connectionID: nil, fromCache: true, cookies: [])))
            }
            cached = nil  // removed since the lookup
        }

        /// Whether `error` is a timeout the request may retry; counts the retry when it is.
        func retrying(after error: any Error) -> Bool {
            guard (error as? ClientError)?.code == .timedOut, retryCount < current.options.retriesOnTimeout else {
                return false
            }
            retryCount += 1
            logger.debug("timed out; retrying", metadata: ["retry": "\(retryCount)"])
            return true
        }

        // RequestOptions.withholdsBodyUntilChallenged: the first attempt probes with an empty body.
        var withholdsBody = current.options.withholdsBodyUntilChallenged && current.options.credential != nil
            && !current.options.presentsCredentialsBeforeChallenge && (current.body.map { $0.length != 0 } ?? false)
        while true {
            var hop = current
            if withholdsBody { hop.body = .bytes([]) }
            try await prepare(&hop, authentication: authentication, authState: &authState, cached: cached)
            if proxyAuthState.negotiation != nil {
                let request = hop
                context.proxyAuthorization = try await staged(.credentials) {
                    try authentication.proxyAuthorization(for: request, state: proxyAuthState)
                }
            }
            context.preferredConnectionID = AuthenticationStage.boundConnection(authState, proxyAuthState)
            let response: Response
            relay?.beginAttempt(uploadLength: hop.body?.length)
            do {
                response = try await send(hop, context: context)
            } catch where retrying(after: error) {
                continue
            }
            let head = ResponseHead(status: response.status, version: response.version,
                                    headerFields: response.headerFields, url: hop.url)
            events.receivedHead(head)
            relay?.responseArrived(expectedLength: hop.method == .head ? nil : response.body.expectedLength)
            logger.debug("response", metadata: ["status": "\(response.status.code)"])
            // A proxy's own challenge is not the origin's answer: its cookies are never stored for the origin.
            let isProxyChallenge = response.status.code == 407 && response.isFromProxy
            let cookies = isProxyChallenge ? [] : SetCookieParser.cookies(in: response.headerFields, from: hop.url)
            if current.options.usesCookieStore, !cookies.isEmpty {
                try await staged(.cookies) { try await client.cookies.store(cookies, receivedFrom: hop.url) }
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
                cached = cache.isEnabled ? try await cache.lookup(current) : nil
                continue
            }

            if response.status == .notModified, let entry = cached {
                await response.body.discard()
                // The body first: it is the one committed with the looked-up head, even if the key was replaced since.
                guard let body = try await CacheStage.open(entry) else {
                    cached = nil  // removed since the lookup: ask again without conditions
                    continue
                }
                let refreshed = try await cache.revalidated(entry.head, by: response, for: current)
                let cachedResponse = CacheStage.response(from: refreshed, body: body)
                let head = ResponseHead(status: cachedResponse.status, version: response.version,
                                        headerFields: cachedResponse.headerFields, url: current.url)
                return try await consume(StreamingResponse(
                    head: head, body: cachedResponse.body,
                    info: info(connectionID: response.connectionID, fromCache: true, cookies: cookies)))
            }
            let body = try await cache.body(of: response, for: hop)
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
    /// conditional fields for a cached entry, `Accept-Encoding` and a resumed download's `Range`, and compresses
    /// the body when asked. Fields the caller set are kept.
    private func prepare(
        _ hop: inout Request,
        authentication: AuthenticationStage,
        authState: inout AuthenticationStage.State,
        cached: CacheEntry?
    ) async throws {
        if hop.headerFields[.userAgent] == nil {
            hop.headerFields[.userAgent] = hop.options.userAgent ?? client.configuration.userAgent
        }
        var cookies = hop.options.requestCookies
        if hop.options.usesCookieStore, !client.cookies.isKnownEmpty {
            let url = hop.url
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
        if let cached { CacheStage.addConditionalFields(from: cached.head, to: &hop) }
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
            let stage = ClientError.Stage.middleware(String(describing: type(of: middleware)))
            next = { request, context in
                try await staged(stage) { try await middleware.intercept(request, context: context, next: inner) }
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
