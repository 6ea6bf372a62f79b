import FoundationEssentials
import HTTPCore

/// RFC 9111 freshness for a private cache: how long a response stays fresh (§4.2.1, §4.2.2), how old it is
/// (§4.2.3), and which responses may be stored (§3).
enum CacheFreshness {
    /// Statuses a cache may give a heuristic freshness lifetime (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]
    /// Statuses this cache understands, for `must-understand` (RFC 9111 §5.2.2.3).
    static let understood: Set<Int> = [
        200, 203, 204, 300, 301, 302, 303, 307, 308, 400, 403, 404, 405, 410, 414, 500, 501, 502, 503, 504,
    ]

    /// When the exchange happened, for the age calculation.
    struct Timing {
        /// When the request was sent.
        var requestTime: Date
        /// When the response head arrived.
        var responseTime: Date
    }

    /// The response's freshness lifetime in seconds: `max-age`, else `Expires` − `Date`, else 10 % of the time
    /// since `Last-Modified` for a heuristically cacheable status; `nil` when none applies (the entry must be
    /// revalidated before each use). An invalid `max-age` or `Expires` counts as already expired (0).
    static func lifetime(of fields: HTTPFields, status: Int, responseTime: Date) -> TimeInterval? {
        let cacheControl = CacheDirectives(fields, .cacheControl)
        switch cacheControl.seconds("max-age") {
        case .value(let seconds): return TimeInterval(seconds)
        case .invalid: return 0
        case nil: break
        }
        let date = dateValue(of: fields) ?? responseTime
        let expires = fields[values: .expires]
        if !expires.isEmpty {
            guard expires.count == 1, let expiry = HTTPDate.parse(expires[0]) else { return 0 }
            return max(0, expiry.timeIntervalSince(date))
        }
        guard heuristicallyCacheable.contains(status) || cacheControl.contains("public"),
            let modified = fields[.lastModified].flatMap(HTTPDate.parse), modified < date
        else { return nil }
        return date.timeIntervalSince(modified) / 10
    }

    /// The `Date` field, when there is exactly one valid one.
    static func dateValue(of fields: HTTPFields) -> Date? {
        let values = fields[values: .date]
        guard values.count == 1 else { return nil }
        return HTTPDate.parse(values[0])
    }

    /// The `Age` field's first value when it is a non-negative integer, else 0 (RFC 9111 §5.1).
    static func ageValue(of fields: HTTPFields) -> Int {
        guard let first = fields[values: .age].first,
            let value = first.split(separator: ",", omittingEmptySubsequences: false).first?.trimmingOWS(),
            !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return 0 }
        return CacheDirectives.cappedSeconds(String(value))
    }

    /// The corrected initial age (RFC 9111 §4.2.3): the larger of the apparent age (`Date` to arrival) and the
    /// `Age` value plus the time the response took.
    static func initialAge(of fields: HTTPFields, timing: Timing) -> TimeInterval {
        let apparent = dateValue(of: fields).map { max(0, timing.responseTime.timeIntervalSince($0)) } ?? 0
        let delay = max(0, timing.responseTime.timeIntervalSince(timing.requestTime))
        return max(apparent, TimeInterval(ageValue(of: fields)) + delay)
    }

    /// The head a response is stored with: its fields without `Content-Length` and hop-by-hop fields (and the
    /// ones `Connection` or a qualified `no-cache` names), `Age` set to the corrected initial age (of the fields
    /// received with `timing`, `ageFields`), and the expiry.
    static func head(
        status: HTTPResponse.Status, fields received: HTTPFields, ageFields: HTTPFields, timing: Timing,
        rules: Rules, storagePolicy: CacheStoragePolicy, varyingRequestFields: HTTPFields
    ) -> CachedResponseHead {
        let fields = storedFields(received)
        let age = initialAge(of: ageFields, timing: timing)
        var stored = fields
        stored[.age] = String(Int(age))
        return CachedResponseHead(
            status: status, headerFields: stored, storedAt: timing.responseTime,
            expiresAt: expiry(of: received, status: status.code, age: age, timing: timing, rules: rules),
            storagePolicy: storagePolicy, varyingRequestFields: varyingRequestFields)
    }

    /// When an entry goes stale; `nil` when it must always be revalidated (`no-cache`, no freshness information).
    static func expiry(of fields: HTTPFields, status: Int, age: TimeInterval, timing: Timing, rules: Rules) -> Date? {
        guard rules.respectsCacheControl else {
            return rules.secondsToCache.map { timing.responseTime.addingTimeInterval(TimeInterval($0)) }
                ?? .distantFuture
        }
        if let seconds = rules.secondsToCache {
            return timing.responseTime.addingTimeInterval(TimeInterval(seconds))
        }
        if requiresRevalidation(fields) { return nil }
        guard let lifetime = lifetime(of: fields, status: status, responseTime: timing.responseTime) else {
            return nil
        }
        return timing.responseTime.addingTimeInterval(lifetime - age)
    }

    /// Whether every use must be revalidated: `Cache-Control: no-cache` (unqualified), or `Pragma: no-cache`
    /// without `Cache-Control`.
    static func requiresRevalidation(_ fields: HTTPFields) -> Bool {
        let cacheControl = CacheDirectives(fields, .cacheControl)
        if cacheControl.contains("no-cache") && cacheControl.argument("no-cache") == nil { return true }
        return fields[values: .cacheControl].isEmpty && CacheDirectives(fields, CacheStage.pragma).contains("no-cache")
    }

    /// Fields that describe the connection, not the response, and are never stored (RFC 9111 §3.1).
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "proxy-authenticate",
        "proxy-authentication-info", "proxy-authorization", "content-length",
    ]

    static func storedFields(_ fields: HTTPFields) -> HTTPFields {
        var dropped = hopByHop
        for value in fields[values: .connection] {
            for token in value.split(separator: ",") { dropped.insert(token.trimmingOWS().lowercased()) }
        }
        let cacheControl = CacheDirectives(fields, .cacheControl)
        if let named = cacheControl.argument("no-cache") {
            for token in named.split(separator: ",") { dropped.insert(token.trimmingOWS().lowercased()) }
        }
        return HTTPFields(fields.filter { !dropped.contains($0.name.canonicalName) })
    }

    /// The per-request settings that shape freshness.
    struct Rules {
        var respectsCacheControl: Bool
        var secondsToCache: Int?
    }
}
