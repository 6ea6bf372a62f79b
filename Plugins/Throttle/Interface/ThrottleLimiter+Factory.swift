public import HTTPCore

extension BandwidthLimiter where Self == ThrottleLimiter {
    /// A ``ThrottleLimiter``: `Client(transport: .posix(), bandwidth: try .throttle(bytesPerSecond: 14_800))`.
    /// - Parameters:
    ///   - bytesPerSecond: The budget every request of the client shares; `nil` or 0 for none.
    ///   - clock: The clock the limiter measures and waits with; a `ContinuousClock` by default.
    /// - Returns: The limiter.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` for a negative budget.
    public static func throttle(
        bytesPerSecond: Int?, clock: any Clock<Duration> = ContinuousClock()
    ) throws -> ThrottleLimiter {
        try ThrottleLimiter(bytesPerSecond: bytesPerSecond, clock: clock)
    }
}
