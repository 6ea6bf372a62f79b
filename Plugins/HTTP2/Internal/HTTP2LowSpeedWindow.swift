import HTTPCore

/// The running check of a request's ``HTTPCore/LowSpeedLimit`` on its HTTP/2 stream: the body bytes the stream
/// sent and received in the current window, which ends `duration` after it started. The session's watchdog judges
/// a window when it ends: below its share while the request waits on the network (for its head, its body or room
/// for its upload), the stream fails with ``HTTPCore/ClientError/Code/timedOut``; otherwise the next window starts.
/// A window in which the request's own reader kept the stream waiting (flow control held by an unread body) is not
/// the server's slowness and is not held against it.
struct HTTP2LowSpeedWindow {
    let limit: LowSpeedLimit
    /// The bytes a window must move.
    let minimumBytes: Int
    /// When the current window started.
    private(set) var start: ContinuousClock.Instant
    /// Bytes sent and received in it so far.
    private(set) var bytes = 0

    init(limit: LowSpeedLimit, now: ContinuousClock.Instant) {
        self.limit = limit
        minimumBytes = limit.windowShare
        start = now
    }

    /// Counts bytes that moved on the stream.
    mutating func record(_ count: Int) {
        bytes &+= count
    }

    /// Judges the window if it has ended.
    /// - Parameters:
    ///   - now: The current instant.
    ///   - waitsOnNetwork: Whether the request waits for the server (head, body or upload room).
    /// - Returns: The error to fail the stream with, or `nil` (the window goes on, or the next one started).
    mutating func check(now: ContinuousClock.Instant, waitsOnNetwork: Bool) -> ClientError? {
        guard now - start >= limit.duration else { return nil }
        if bytes < minimumBytes && waitsOnNetwork { return limit.failure }
        start = now
        bytes = 0
        return nil
    }
}
