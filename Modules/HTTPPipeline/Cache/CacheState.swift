import HTTPCore

/// What the pipeline knows about the cache for the current URL of one request: whether it was looked up, the
/// entry being revalidated, the one a failure may fall back to, and the outcome so far.
struct CacheState {
    /// What the lookup means for the next hop.
    enum Lookup {
        /// A stored entry answers.
        case answer(Response)
        /// `dontLoad` with nothing stored.
        case notCached
        /// Ask the server.
        case network
    }

    var needsLookup = true
    var revalidating: CacheEntry?
    var fallback: CacheEntry?
    var outcome: CacheOutcome?
    private var fallbackAllowed = false

    /// Looks `hop` up and decides; an entry whose body vanished since the lookup counts as missing.
    mutating func look(up hop: Request, in cache: CacheStage) async throws -> Lookup {
        guard let decision = try await cache.decide(hop) else { return .network }
        outcome = .miss
        fallbackAllowed = cache.policy(for: hop).contains(.fallbackToCacheIfLoadFails)
        switch decision {
        case .serve(let entry):
            guard let body = try await CacheStage.open(entry) else { return .network }
            outcome = .hit
            return .answer(cache.response(from: entry.head, body: body))
        case .notCached:
            outcome = .notCached
            return .notCached
        case .network(let revalidating, let fallback):
            self.revalidating = revalidating
            self.fallback = fallback
            return .network
        }
    }

    /// The stored response that answers after the load failed (`fallbackToCacheIfLoadFails`), or `nil`: none is
    /// stored, the policy does not fall back, or the entry is stale and says `must-revalidate` or `no-cache`
    /// (RFC 9111 §4.2.4 forbids serving it stale even when disconnected).
    mutating func answerAfterFailure(in cache: CacheStage) async throws -> Response? {
        guard fallbackAllowed, let entry = fallback else { return nil }
        if cache.configuration.respectsCacheControlHeaders, !entry.head.isFresh(at: cache.configuration.now()),
            CacheDecision.mustRevalidate(entry.head)
        {
            return nil
        }
        guard let body = try await CacheStage.open(entry) else { return nil }
        outcome = .fallback
        return cache.response(from: entry.head, body: body)
    }
}
