import FoundationEssentials
import HTTPCore

/// What a `GET` does with the entry its lookup found, under the request's effective policy (ASIHTTPRequest's
/// `canUseCachedDataForRequest:` order, with RFC 9111 freshness and `Vary` matching).
enum CacheDecision {
    /// Answer from the entry without the network.
    case serve(CacheEntry)
    /// `dontLoad` with nothing stored: answer `504` without the network.
    case notCached
    /// Ask the server; `revalidating` is the entry whose validators go along, `fallback` the one a failure may
    /// fall back to.
    case network(revalidating: CacheEntry?, fallback: CacheEntry?)

    static func decide(
        _ found: CacheEntry?, for request: Request, policy: CachePolicy, now: Date, respectsCacheControl: Bool
    ) -> CacheDecision {
        let requestDirectives = CacheDirectives(request.headerFields, .cacheControl)
        // A request's own `no-store` keeps it away from stored responses too.
        if policy.contains(.doNotReadFromCache) || requestDirectives.contains("no-store") {
            return .network(revalidating: nil, fallback: nil)
        }
        let entry = found.flatMap { matchesVary($0.head, request) ? $0 : nil }
        if policy.contains(.dontLoad) || requestDirectives.contains("only-if-cached") {
            return entry.map { .serve($0) } ?? .notCached
        }
        guard let entry else { return .network(revalidating: nil, fallback: nil) }
        if policy.contains(.onlyLoadIfNotCached) { return .serve(entry) }
        if policy.contains(.askServerIfModifiedWhenStale),
            isFresh(entry.head, for: request, at: now, respectsCacheControl: respectsCacheControl)
        {
            return .serve(entry)
        }
        if policy.contains(.askServerIfModifiedWhenStale) || policy.contains(.askServerIfModified) {
            return .network(revalidating: entry, fallback: entry)
        }
        return .network(revalidating: nil, fallback: entry)
    }

    /// The entry's age now: its stored `Age` (the corrected initial age) plus the time it has been stored.
    static func currentAge(of head: CachedResponseHead, at now: Date) -> TimeInterval {
        TimeInterval(CacheFreshness.ageValue(of: head.headerFields)) + max(0, now.timeIntervalSince(head.storedAt))
    }

    /// Whether the entry may answer without asking the server, under the request's own `Cache-Control`
    /// (`no-cache`, `max-age`, `min-fresh`, `max-stale`) and `Pragma: no-cache`.
    static func isFresh(_ head: CachedResponseHead, for request: Request, at now: Date, respectsCacheControl: Bool)
        -> Bool
    {
        guard respectsCacheControl else { return head.isFresh(at: now) }
        let directives = CacheDirectives(request.headerFields, .cacheControl)
        if directives.contains("no-cache") { return false }
        if request.headerFields[values: .cacheControl].isEmpty,
            CacheDirectives(request.headerFields, CacheStage.pragma).contains("no-cache")
        {
            return false
        }
        guard let expiresAt = head.expiresAt else { return false }
        let age = currentAge(of: head, at: now)
        let lifetime = expiresAt.timeIntervalSince(head.storedAt) + TimeInterval(
            CacheFreshness.ageValue(of: head.headerFields))
        // `max-age=0` asks for a revalidation even of a response that is 0 s old.
        if case .value(let maxAge) = directives.seconds("max-age"), maxAge == 0 || age > TimeInterval(maxAge) {
            return false
        }
        if case .value(let minFresh) = directives.seconds("min-fresh"), lifetime - age < TimeInterval(minFresh) {
            return false
        }
        if lifetime > age { return true }
        guard directives.contains("max-stale"), !mustRevalidate(head) else { return false }
        if case .value(let maxStale) = directives.seconds("max-stale") {
            return age - lifetime <= TimeInterval(maxStale)
        }
        return true
    }

    /// Whether a stale entry may never be used unvalidated: `must-revalidate` (or `no-cache`).
    static func mustRevalidate(_ head: CachedResponseHead) -> Bool {
        let directives = CacheDirectives(head.headerFields, .cacheControl)
        return directives.contains("must-revalidate") || CacheFreshness.requiresRevalidation(head.headerFields)
    }

    /// Whether the request sends what the stored request sent for every field the entry's `Vary` names
    /// (RFC 9111 §4.1); `Vary: *` never matches. Values compare with the whitespace around commas removed.
    static func matchesVary(_ head: CachedResponseHead, _ request: Request) -> Bool {
        for value in head.headerFields[values: .vary] {
            for token in value.split(separator: ",") {
                let name = token.trimmingOWS()
                if name == "*" { return false }
                guard !name.isEmpty, let field = HTTPField.Name(String(name)) else { continue }
                let stored = normalized(head.varyingRequestFields[values: field])
                if stored != normalized(request.headerFields[values: field]) { return false }
            }
        }
        return true
    }

    private static func normalized(_ values: [String]) -> String? {
        guard !values.isEmpty else { return nil }
        return values.joined(separator: ",").split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingOWS() }.joined(separator: ",")
    }
}
