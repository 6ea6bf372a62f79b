import FoundationEssentials

extension Date {
    /// The latest expiry a cookie file line keeps: 9999-12-31T23:59:59Z. Larger values (old curl releases wrote
    /// `9223372036854775807` when `Max-Age` overflowed) are read as this, so every expiry converts back to a whole
    /// number of seconds without overflowing.
    static let latestCookieFileExpiry: Int64 = 253_402_300_799

    /// Whole seconds since 1970 for a cookie file's expiry field, clamped to `0...latestCookieFileExpiry`, so
    /// that no date (however far off) traps when converted.
    var cookieFileSeconds: Int64 {
        let seconds = timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, seconds < Double(Self.latestCookieFileExpiry) else {
            return seconds.isNaN ? 0 : (seconds > 0 ? Self.latestCookieFileExpiry : 0)
        }
        return max(0, Int64(seconds))
    }
}
