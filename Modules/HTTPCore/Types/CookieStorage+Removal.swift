public import FoundationEssentials

extension CookieStorage {
    /// Removes the cookies that have expired at `now` (RFC 6265 §5.3: "The user agent MUST evict all expired
    /// cookies").
    /// - Parameter now: The current time.
    /// - Returns: How many cookies were removed.
    @discardableResult
    public mutating func removeExpired(at now: Date) -> Int {
        removeAll { $0.isExpired(at: now) }
    }

    /// Removes every cookie without an expiry date, the ones that end with the session (RFC 6265 §5.3:
    /// "When the current session is over ... remove from the cookie store all cookies with the persistent-flag
    /// set to false").
    /// - Returns: How many cookies were removed.
    @discardableResult
    public mutating func removeSessionCookies() -> Int {
        removeAll { $0.expires == nil }
    }

    /// Removes every cookie. The creation order of cookies stored later goes on from where it was.
    /// - Returns: How many cookies were removed.
    @discardableResult
    public mutating func removeAll() -> Int {
        let removed = count
        guard removed > 0 else { return 0 }
        buckets.removeAll()
        count = 0
        revision += 1
        return removed
    }

    /// Removes every cookie for which `shouldRemove` is true.
    /// - Parameter shouldRemove: Decides for one cookie.
    /// - Returns: How many cookies were removed.
    @discardableResult
    public mutating func removeAll(where shouldRemove: (Cookie) throws -> Bool) rethrows -> Int {
        guard count > 0 else { return 0 }
        var removed = 0
        for domain in Array(buckets.keys) {
            removed += try removeEntries(in: domain) { try shouldRemove($0.cookie) }
        }
        return removed
    }

    /// Removes the entries of one domain's bucket that `shouldRemove` picks, dropping the bucket when it empties,
    /// and keeps ``count`` and ``revision`` true.
    @discardableResult
    mutating func removeEntries(in domain: String, where shouldRemove: (Entry) throws -> Bool) rethrows -> Int {
        guard let before = buckets[domain]?.count else { return 0 }
        try buckets[domain]?.removeAll(where: shouldRemove)
        let after = buckets[domain]?.count ?? 0
        if after == 0 { buckets[domain] = nil }
        let removed = before - after
        if removed > 0 {
            count -= removed
            revision += 1
        }
        return removed
    }
}
