import HTTPCore

/// The running check of a ``LowSpeedLimit``: bytes moved in the current window, which ends `duration` after it
/// started. A window that ends with fewer than its share of bytes fails the exchange; otherwise the next one
/// starts.
struct LowSpeedWindow {
    let limit: LowSpeedLimit
    /// The bytes a window must move.
    let minimumBytes: UInt64
    /// A window's length in nanoseconds.
    let length: UInt64
    /// When the current window started (``NanoTime``).
    private(set) var start: UInt64
    /// Bytes sent and received in it so far.
    private(set) var bytes: UInt64 = 0

    init(limit: LowSpeedLimit, now: UInt64) {
        self.limit = limit
        length = max(1, NanoTime.nanoseconds(limit.duration))
        minimumBytes = UInt64(limit.windowShare)
        start = now
    }

    /// When the current window ends.
    var end: UInt64 { start > UInt64.max - length ? UInt64.max : start + length }

    /// Counts bytes that moved, then judges the window if it has ended.
    /// - Throws: ``ClientError`` `timedOut` when the window ended below the limit.
    mutating func record(_ count: Int, now: UInt64) throws {
        bytes &+= UInt64(max(0, count))
        try check(now: now)
    }

    /// Judges the window if it has ended: below the limit it throws, otherwise the next one starts now.
    /// - Throws: ``ClientError`` `timedOut` when the window ended below the limit.
    mutating func check(now: UInt64) throws {
        guard now >= end else { return }
        guard bytes >= minimumBytes else { throw failure }
        start = now
        bytes = 0
    }

    /// When the transfer fails if no further byte moves: the current window's end when it is still short of its
    /// share, otherwise the end of the next window, which would then move nothing. Judges an ended window first.
    /// - Throws: ``ClientError`` `timedOut` when the window ended below the limit.
    mutating func failureDeadline(now: UInt64) throws -> UInt64 {
        try check(now: now)
        guard bytes >= minimumBytes else { return end }
        return end > UInt64.max - length ? UInt64.max : end + length
    }

    /// The error a window below the limit ends the exchange with.
    var failure: ClientError { limit.failure }
}
