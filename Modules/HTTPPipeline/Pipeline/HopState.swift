import FoundationEssentials
import HTTPCore

/// Everything one request has gathered on its way to a final response, and the rules that say what to do with each
/// response: a value with no I/O, so every rule is testable without a server. ``RequestPipeline`` is the I/O shell
/// that sends what it asks for and carries out its ``HopAction``s.
///
/// Its steps are synchronous and never inlined: the loop calls them between two awaits, and their temporaries (copies
/// of the request's body and credential options) then stay on the thread's stack instead of taking slots in the loop's
/// async frame, which every request allocates (decision 0034).
struct HopState {
    /// The request as it now stands: the caller's, or the one a redirect made.
    private(set) var current: Request
    /// Redirects followed so far.
    private(set) var redirectCount = 0
    /// Hops sent again after a timeout (ASIHTTPRequest's `retryCount`).
    private(set) var retryCount = 0
    /// The origin server's authentication, carried from hop to hop.
    var authentication = AuthenticationStage.State()
    /// The proxy's authentication.
    var proxyAuthentication = AuthenticationStage.State()
    /// The cache's view of the current URL.
    var cache = CacheState()
    /// Refuses to send a one-time body twice, or a body of unknown length to an HTTP/1.0 origin.
    var bodyGuard = BodyResendGuard()
    /// ``RequestOptions/withholdsBodyUntilChallenged``: the first attempt probes with an empty body.
    private(set) var withholdsBody: Bool
    /// Whether a cache is there to ask when the URL changes.
    private let looksUpCache: Bool
    /// The retries of the request's ``RetryPolicy``, and the wait before the next attempt; `nil` without a policy.
    let retries: RetryState?

    /// A request's state before its first hop.
    /// - Parameters:
    ///   - request: The caller's request.
    ///   - looksUpCache: Whether a cache is there to ask; without one, no hop waits for a lookup.
    ///   - retries: The retries of the request's ``RetryPolicy`` (its own, or the client's), if it has one.
    @inline(never)
    init(_ request: Request, looksUpCache: Bool, retries: RetryState? = nil) {
        current = BodyMethodRule.applied(to: request)
        self.retries = retries
        self.looksUpCache = looksUpCache
        cache.needsLookup = looksUpCache
        withholdsBody = current.options.withholdsBodyUntilChallenged && current.options.credential != nil
            && !current.options.presentsCredentialsBeforeChallenge && (current.body.map { $0.length != 0 } ?? false)
    }

    /// The next hop to send, before the automatic header fields: the current request, its body held back while the
    /// request probes for a challenge.
    var nextHop: Request {
        @inline(never) get {
            var hop = current
            if withholdsBody { hop.body = .bytes([]) }
            return hop
        }
    }

    /// Whether the current hop is sent again after `error`: a timeout while ``RequestOptions/retriesOnTimeout``
    /// lasts (at once), or an error the request's ``RetryPolicy`` retries (after ``retries``' wait). Counts the retry.
    @inline(never)
    mutating func retrying(after error: any Error) -> Bool {
        if (error as? ClientError)?.code == .timedOut, retryCount < current.options.retriesOnTimeout,
            bodyGuard.mayRetry(current)
        {
            retryCount += 1
            return true
        }
        return retryingByPolicy(.error(error))
    }

    /// Whether the request's ``RetryPolicy`` sends the hop again after a response with this status (503, 429, ...),
    /// after the wait it chose (``RetryState/pendingWait``). Counts the retry.
    @inline(never)
    mutating func retrying(afterStatus status: HTTPResponse.Status, retryAfter: String?) -> Bool {
        retryingByPolicy(.status(status.code, retryAfter: retryAfter))
    }

    private mutating func retryingByPolicy(_ outcome: RetryOutcome) -> Bool {
        guard retries?.schedules(after: outcome, for: current, mayResend: bodyGuard.mayRetry(current)) == true
        else { return false }
        retryCount += 1
        return true
    }

    /// Waits out the backoff the last retry chose, if any.
    func waitBeforeRetrying() async throws {
        try await retries?.waitIfScheduled()
    }

    /// The current request as HSTS upgraded it (``HSTSStage/upgraded(_:store:)``): `https` instead of `http`.
    mutating func upgrade(to upgraded: Request) {
        current = upgraded
    }

    /// What a response to the current hop means, in the order the rules apply: a proxy's challenge, the end of a
    /// body-less probe, the origin's challenge, a redirect, a revalidated cache entry — or the final response.
    /// A redirect is taken here (the count, the new request, a fresh cache state); the caller discards the body.
    ///
    /// A challenge that no credential answers is final when the request does not fail on it
    /// (``RequestOptions/failsOnUnansweredChallenge`` off): 401 and 407 are neither redirects nor revalidations.
    /// - Parameters:
    ///   - status: The response's status.
    ///   - location: Its `Location` field.
    ///   - isFromProxy: Whether a proxy answered, not the origin.
    ///   - fromCache: Whether the cache answered.
    /// - Returns: The credentials to save and the one action to take.
    /// - Throws: ``ClientError/Code/tooManyRedirects`` past ``RequestOptions/maxRedirects``; what
    ///   ``RedirectPolicy`` throws for a redirect it refuses.
    @inline(never)
    mutating func next(
        afterStatus status: HTTPResponse.Status, location: String?, isFromProxy: Bool, fromCache: Bool
    ) throws -> HopDecision {
        var decision = HopDecision(action: .deliver)
        if status.code == 407 && isFromProxy {
            decision.action = .answerProxyChallenge
            return decision
        }
        decision.savesProxyCredential = AuthenticationStage.needsSaving(proxyAuthentication)
        if withholdsBody {
            withholdsBody = false
            if (200..<300).contains(status.code) {  // no challenge: again, this time with the body
                decision.action = .sendAgain
                return decision
            }
        }
        if status.code == 401 {
            decision.action = .answerChallenge
            return decision
        }
        decision.savesCredential = authentication.credential != nil
        return try decided(decision, status: status, location: location, fromCache: fromCache)
    }

    /// The rules after authentication: a redirect, a 304 that revalidates the cached entry, or delivery.
    private mutating func decided(
        _ decision: HopDecision, status: HTTPResponse.Status, location: String?, fromCache: Bool
    ) throws -> HopDecision {
        var decision = decision
        if current.options.followsRedirects,
            let next = try RedirectPolicy.nextRequest(status: status.code, location: location, after: current)
        {
            redirectCount += 1
            guard redirectCount <= current.options.maxRedirects else {
                throw ClientError(.tooManyRedirects, stage: .pipeline,
                                  message: "More than \(current.options.maxRedirects) redirects")
            }
            current = next
            cache = CacheState()
            cache.needsLookup = looksUpCache
            decision.action = .redirect
            return decision
        }
        if !fromCache, status == .notModified, let entry = cache.revalidating {
            decision.action = .revalidate(entry)
        }
        return decision
    }

    /// What the final response tells about the exchange.
    @inline(never)
    func info(id: RequestID, originalURL: URL, connectionID: UInt64?, fromCache: Bool, cookies: [Cookie])
        -> ExchangeInfo
    {
        var info = ExchangeInfo(
            requestID: id, originalURL: originalURL, finalRequest: current, redirectCount: redirectCount,
            retryCount: retryCount, connectionID: connectionID, isFromCache: fromCache, responseCookies: cookies)
        info.cacheOutcome = cache.outcome
        return info
    }

    /// The entry being revalidated has vanished since the lookup: the next hop asks again without conditions.
    mutating func revalidationLost() {
        cache.revalidating = nil
        cache.fallback = nil
    }
}

/// What ``HopState/next(afterStatus:location:isFromProxy:fromCache:)`` asks of the shell for one response: the
/// credentials to keep first, then one action.
struct HopDecision: Equatable {
    /// The proxy accepted the credential it challenged for: save it.
    var savesProxyCredential = false
    /// The origin accepted the request's credential: save it (ASIHTTPRequest's keychain and session stores).
    var savesCredential = false
    /// What to do with the response.
    var action: HopAction
}

/// The one thing to do with a response.
enum HopAction: Equatable {
    /// Answer the proxy's 407 and send the hop again.
    case answerProxyChallenge
    /// The body-less probe was not challenged: send the hop again with its body.
    case sendAgain
    /// Answer the origin's 401 and send the hop again.
    case answerChallenge
    /// Follow the redirect ``HopState`` has taken: the current request is the new one.
    case redirect
    /// The server confirmed the cached entry: deliver it, its head refreshed. Boxed (`indirect`): the entry is 104
    /// bytes, and every action is a slot in the async frame of the pipeline's loop, which every request allocates.
    indirect case revalidate(CacheEntry)
    /// The response is final.
    case deliver

    static func == (lhs: HopAction, rhs: HopAction) -> Bool {
        switch (lhs, rhs) {
        case (.answerProxyChallenge, .answerProxyChallenge), (.sendAgain, .sendAgain),
            (.answerChallenge, .answerChallenge), (.redirect, .redirect), (.deliver, .deliver),
            (.revalidate, .revalidate):
            true
        default: false
        }
    }
}
