import FoundationEssentials

extension CookieStorage {
    /// How large a cookie may be and how many a storage keeps, per domain and in all (RFC 6265 §6.1 asks for at
    /// least 4096 bytes per cookie, 50 cookies per domain and 3000 cookies in all; browsers apply those numbers as
    /// limits).
    ///
    /// A cookie whose name and value together are larger than ``maxCookieSize`` bytes is refused and leaves a stored
    /// cookie of the same identity alone. When a domain holds more than ``maxCookiesPerDomain`` cookies, or the
    /// storage more than ``maxCookies``, the expired ones are evicted first, then the least recently created.
    /// A domain here is a cookie's ``Cookie/domain``.
    public struct Limits: Sendable, Hashable {
        /// The most bytes of name and value (UTF-8) one cookie may have.
        public let maxCookieSize: Int
        /// The most cookies kept for one ``Cookie/domain``.
        public let maxCookiesPerDomain: Int
        /// The most cookies kept in all.
        public let maxCookies: Int

        /// The limits browsers apply: 4096 bytes per cookie, 50 cookies per domain, 3000 in all.
        public static let standard = Limits(checked: 4096, 50, 3000)

        /// Creates limits.
        /// - Parameters:
        ///   - maxCookieSize: The most bytes of name and value per cookie; 4096 by default.
        ///   - maxCookiesPerDomain: The most cookies per domain; 50 by default.
        ///   - maxCookies: The most cookies in all; 3000 by default.
        /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` when a limit is below 1.
        public init(
            maxCookieSize: Int = 4096, maxCookiesPerDomain: Int = 50, maxCookies: Int = 3000
        ) throws(ClientError) {
            guard maxCookieSize > 0, maxCookiesPerDomain > 0, maxCookies > 0 else {
                throw ClientError(.invalidConfiguration, stage: .cookies, message: "Cookie limits must be at least 1")
            }
            self.init(checked: maxCookieSize, maxCookiesPerDomain, maxCookies)
        }

        private init(checked maxCookieSize: Int, _ maxCookiesPerDomain: Int, _ maxCookies: Int) {
            self.maxCookieSize = maxCookieSize
            self.maxCookiesPerDomain = maxCookiesPerDomain
            self.maxCookies = maxCookies
        }
    }

    /// Stores one cookie (RFC 6265 §5.3 steps 11 and 12) and keeps its domain within
    /// ``Limits/maxCookiesPerDomain``; the caller enforces ``Limits/maxCookies`` once per batch.
    mutating func insert(_ cookie: Cookie, at now: Date) {
        guard cookie.name.utf8.count + cookie.value.utf8.count <= limits.maxCookieSize else { return }
        let domain = cookie.domain
        let index = buckets[domain]?.firstIndex { $0.cookie.name == cookie.name && $0.cookie.path == cookie.path }
        if cookie.isExpired(at: now) {
            if let index, let sequence = buckets[domain]?[index].sequence {
                removeEntries(in: domain) { $0.sequence == sequence }
            }
            return
        }
        revision += 1
        if let index {
            var replacement = cookie
            replacement.created = buckets[domain]?[index].cookie.created ?? cookie.created
            buckets[domain]?[index].cookie = replacement
            return
        }
        buckets[domain, default: []].append(Entry(cookie: cookie, sequence: nextSequence))
        nextSequence += 1
        count += 1
        if let size = buckets[domain]?.count, size > limits.maxCookiesPerDomain {
            evict(size - limits.maxCookiesPerDomain, from: [domain], at: now)
        }
    }

    /// Evicts down to ``Limits/maxCookies``: expired cookies first, then the least recently created.
    mutating func enforceTotalLimit(at now: Date) {
        guard count > limits.maxCookies else { return }
        evict(count - limits.maxCookies, from: Array(buckets.keys), at: now)
    }

    /// Evicts `excess` cookies of `domains`: expired ones first, then the least recently created.
    private mutating func evict(_ excess: Int, from domains: [String], at now: Date) {
        var expired = 0
        for domain in domains {
            expired += removeEntries(in: domain) { $0.cookie.isExpired(at: now) }
        }
        let remaining = excess - expired
        guard remaining > 0 else { return }
        var candidates: [(domain: String, entry: Entry)] = []
        for domain in domains {
            for entry in buckets[domain] ?? [] { candidates.append((domain, entry)) }
        }
        let victims: [(domain: String, entry: Entry)]
        if remaining == 1, let oldest = candidates.min(by: { $0.entry.isOlder(than: $1.entry) }) {
            victims = [oldest]  // one over the limit, the usual case: no sort
        } else {
            victims = Array(candidates.sorted { $0.entry.isOlder(than: $1.entry) }.prefix(remaining))
        }
        let sequences = Set(victims.map(\.entry.sequence))
        for domain in Set(victims.map(\.domain)) {
            removeEntries(in: domain) { sequences.contains($0.sequence) }
        }
    }
}
