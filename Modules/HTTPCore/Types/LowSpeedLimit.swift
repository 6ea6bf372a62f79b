/// The slowest a transfer may be for how long: curl's `--speed-limit` and `--speed-time` (`CURLOPT_LOW_SPEED_LIMIT`,
/// `CURLOPT_LOW_SPEED_TIME`).
///
/// The transport counts the bytes a connection sends and receives in windows of ``duration``; when a whole window
/// moves fewer than ``bytesPerSecond`` × ``duration`` bytes, the request fails with ``ClientError/Code/timedOut``
/// ("slower than … bytes per second for …"). A window with no byte at all ends the same way, so a limit covers a
/// stall as ``RequestOptions/timeout`` does; the two apply together, whichever fires first. curl averages over a
/// sliding few seconds and checks once a second: a transfer that ASIKit gives up on after one window curl gives up
/// on within about a second of it (decision 0029).
public struct LowSpeedLimit: Sendable, Hashable {
    /// The lowest average rate a window may have, in bytes per second; at least 1.
    public var bytesPerSecond: Int
    /// How long each window lasts; more than zero.
    public var duration: Duration

    /// Creates a limit.
    /// - Parameters:
    ///   - bytesPerSecond: The lowest average rate (curl's `--speed-limit`, in bytes per second).
    ///   - duration: For how long the rate may stay below it (curl's `--speed-time`).
    public init(bytesPerSecond: Int, duration: Duration) {
        self.bytesPerSecond = max(1, bytesPerSecond)
        self.duration = duration
    }
}
