public import FoundationEssentials

/// RFC 6265's storage model (§5.3) as one pure value: the cookies a store keeps, how new ones replace old ones,
/// which ones a request gets and in what order (§5.4), and the limits browsers apply.
///
/// Every ``CookieStore`` wraps one, behind a lock or in an actor, so no store re-implements the rules. The value
/// reads no clock: every operation that depends on the time takes it as an argument, so tests and stores decide
/// what "now" is.
///
/// - Storing a cookie with the ``Cookie/identity`` of a stored one replaces it and keeps the stored one's
///   creation (its ``Cookie/created`` date and its place in the creation order). A cookie that has already
///   expired removes the stored one and is not kept.
/// - Cookies are indexed by domain, so a lookup reads only the buckets of the request host and its parent
///   domains. An empty storage answers without looking at the URL; one matching cookie costs no sort.
/// - Creation order is the ``Cookie/created`` date, then the order in which the storage first saw each cookie,
///   so cookies set by one response (which share a date) keep the order they were set in.
/// - ``Limits`` refuse oversized cookies and evict when a domain or the whole storage is full: expired cookies
///   first, then the least recently created.
///
/// ```swift
/// var storage = CookieStorage()
/// storage.store(cookies, receivedFrom: url, at: Date())
/// let header = storage.cookies(for: url, at: Date()).map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
/// ```
public struct CookieStorage: Sendable {
    /// One stored cookie and its place in the creation order.
    struct Entry: Sendable {
        var cookie: Cookie
        /// Unique and increasing in the order the storage first saw each identity.
        let sequence: UInt64

        /// RFC 6265 §5.3's creation order: earlier ``Cookie/created`` first, then earlier first seen.
        func isOlder(than other: Entry) -> Bool {
            if cookie.created != other.cookie.created { return cookie.created < other.cookie.created }
            return sequence < other.sequence
        }

        /// RFC 6265 §5.4's sending order: longer paths first, then older first.
        func sendsBefore(_ other: Entry) -> Bool {
            let length = cookie.path.utf8.count
            let otherLength = other.cookie.path.utf8.count
            return length != otherLength ? length > otherLength : isOlder(than: other)
        }
    }

    /// The limits this storage applies.
    public let limits: Limits
    /// The stored cookies by ``Cookie/domain``, each bucket in the order first seen; no bucket is empty.
    var buckets: [String: [Entry]] = [:]
    /// The sequence number of the next new identity.
    var nextSequence: UInt64 = 0

    /// How many cookies are stored, expired ones included until they are removed.
    public internal(set) var count = 0

    /// A number that grows with every change, so a persistent store can tell whether it has something to write.
    public internal(set) var revision: UInt64 = 0

    /// Creates an empty storage.
    /// - Parameter limits: The size and count limits; browsers' by default.
    public init(limits: Limits = .standard) {
        self.limits = limits
    }

    /// Whether no cookie is stored, expired ones included.
    public var isEmpty: Bool { count == 0 }

    /// Stores cookies a response set, in the order given (RFC 6265 §5.3 steps 11 and 12).
    ///
    /// A cookie whose ``Cookie/domain`` does not domain-match `url`'s host, or whose name and value together
    /// exceed ``Limits/maxCookieSize`` bytes, is refused. The acceptance rules of the `Set-Cookie` parser
    /// (domain attribute, `Secure` over `http`, public suffixes) are the parser's and not repeated here.
    /// - Parameters:
    ///   - cookies: The parsed, accepted cookies.
    ///   - url: The URL of the response that set them.
    ///   - now: The time of receipt: a cookie expired at this time removes the stored one.
    public mutating func store(_ cookies: [Cookie], receivedFrom url: URL, at now: Date) {
        guard !cookies.isEmpty, let host = url.host(percentEncoded: false)?.lowercased() else { return }
        for cookie in cookies
        where Cookie.domainMatches(host: host, domain: cookie.domain, hostOnly: cookie.isHostOnly) {
            insert(cookie, at: now)
        }
        enforceTotalLimit(at: now)
    }

    /// Stores cookies read back from persistent storage, with the same replacement, expiry and limits as
    /// ``store(_:receivedFrom:at:)`` but no URL to check them against.
    ///
    /// Pass the cookies in the order ``allCookies`` returned them, so their creation order survives.
    /// - Parameters:
    ///   - cookies: The cookies, each with its original ``Cookie/created`` date.
    ///   - now: The current time: cookies that have expired are dropped.
    public mutating func restore(_ cookies: [Cookie], at now: Date) {
        for cookie in cookies { insert(cookie, at: now) }
        enforceTotalLimit(at: now)
    }

    /// The cookies to send with a request to `url` at `now`: exactly those for which
    /// ``Cookie/matches(_:at:)`` is true, longer paths first, then in creation order (RFC 6265 §5.4).
    /// - Parameters:
    ///   - url: The request URL.
    ///   - now: The time of the request.
    /// - Returns: The cookies in sending order.
    public func cookies(for url: URL, at now: Date) -> [Cookie] {
        guard count > 0, let host = url.host(percentEncoded: false)?.lowercased() else { return [] }
        let query = Query(isSecure: url.scheme?.lowercased() == "https", path: url.path(percentEncoded: true), now: now)
        var found: [Entry] = []
        query.collect(from: buckets[host], hostMatchesExactly: true, into: &found)
        if !Cookie.isIPAddress(host) {
            var parent = host[...]
            while let dot = parent.firstIndex(of: ".") {
                parent = parent[parent.index(after: dot)...]
                query.collect(from: buckets[String(parent)], hostMatchesExactly: false, into: &found)
            }
        }
        guard found.count > 1 else { return found.map(\.cookie) }
        return found.sorted { $0.sendsBefore($1) }.map(\.cookie)
    }

    /// Every stored cookie, expired ones included, in creation order: what a persistent store writes.
    public var allCookies: [Cookie] {
        buckets.values.joined().sorted { $0.isOlder(than: $1) }.map(\.cookie)
    }

    /// The parts of a request that decide which cookies match, worked out once per lookup.
    private struct Query {
        let isSecure: Bool
        let path: String
        let now: Date

        /// Appends the bucket's cookies that match; the bucket's domain is the host or one of its parents.
        func collect(from bucket: [Entry]?, hostMatchesExactly: Bool, into found: inout [Entry]) {
            guard let bucket else { return }
            for entry in bucket {
                let cookie = entry.cookie
                guard hostMatchesExactly || !cookie.isHostOnly, isSecure || !cookie.isSecure,
                    !cookie.isExpired(at: now), Cookie.pathMatches(requestPath: path, cookiePath: cookie.path)
                else { continue }
                found.append(entry)
            }
        }
    }
}
