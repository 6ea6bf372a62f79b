public import HTTPCore
import Synchronization

/// ASIHTTPRequest's bandwidth throttle: one budget in bytes per second shared by every request of a client, in
/// both directions, with a limit of each request's own applied together with it (`maxBandwidthPerSecond`,
/// `averageBandwidthUsedPerSecond`).
///
/// Put it in the client's `bandwidth` slot; the transport then asks it before moving body bytes and holds the
/// socket back while the budget is spent (the kernel's receive window slows the server down):
///
/// ```swift
/// let limiter = try ThrottleLimiter(bytesPerSecond: ThrottleLimiter.wwanBytesPerSecond)
/// let client = Client(transport: .posix(), bandwidth: limiter)
/// var request = Request(url: url)
/// request.options.maxBandwidthPerSecond = 4_000      // this request: at most 4,000 bytes/s as well
/// _ = try await client.send(request)
/// print(client.averageBandwidthPerSecond)            // the mean of the last five one-second windows
/// ```
///
/// How it limits (Docs/Decisions/0010): the budget of each one-second window is handed out in small slices paced
/// across the window (a token bucket that holds at most a twentieth of a second's budget and starts empty), so
/// `n` bytes take `n / limit` seconds, as in ASIHTTPRequest, and no second runs more than a few percent over the
/// limit. Bytes that moved beyond a grant (body bytes that came with a response head) are charged as debt that
/// every request waits out, ASIHTTPRequest's penalty for a request over the budget. A request with its own limit
/// (``BandwidthTransfer/limit``, curl's `--limit-rate`) gets a bucket of its own as well, and every grant comes
/// from both. Without a shared limit the limiter applies only the requests' own limits, and still measures.
///
/// ``averageBytesPerSecond`` is ASIHTTPRequest's `averageBandwidthUsedPerSecond`: the mean of the complete
/// one-second windows among the last five, 0 once a whole window passed without a byte.
public final class ThrottleLimiter: BandwidthLimiter {
    /// ASIHTTPRequest's `ASIWWANBandwidthThrottleAmount`: 14,800 bytes per second, an unofficial figure thought
    /// safe for apps on a cellular connection.
    public static let wwanBytesPerSecond = 14_800

    private let timeline: Timeline
    private let state: Mutex<ThrottleState>

    /// Creates a limiter.
    /// - Parameters:
    ///   - bytesPerSecond: The budget every request of the client shares, in body bytes per second; `nil` or 0
    ///     for none (ASIHTTPRequest's 0 = off), so that only the requests' own limits apply.
    ///   - clock: The clock the limiter measures and waits with; a `ContinuousClock` by default.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` for a negative budget.
    public init(bytesPerSecond: Int?, clock: any Clock<Duration> = ContinuousClock()) throws {
        if let bytesPerSecond, bytesPerSecond < 0 {
            throw ClientError(.invalidConfiguration, message: "The bandwidth budget cannot be negative")
        }
        let timeline = Timeline(clock)
        self.timeline = timeline
        state = Mutex(ThrottleState(bytesPerSecond: bytesPerSecond, at: timeline.now()))
    }

    /// The shared budget in bytes per second, `nil` for none (ASIHTTPRequest's `+maxBandwidthPerSecond`).
    ///
    /// Setting it takes effect with the next ask (requests already waiting finish their wait first); `nil` or 0
    /// turns the shared budget off. A negative value is a programmer error.
    public var bytesPerSecond: Int? {
        get { state.withLock { $0.sharedRate } }
        set {
            precondition((newValue ?? 0) >= 0, "The bandwidth budget cannot be negative")
            state.withLock { $0.setSharedRate(newValue, at: timeline.now()) }
        }
    }

    /// Whether a shared budget is set (ASIHTTPRequest's `+isBandwidthThrottled`).
    public var isThrottled: Bool { bytesPerSecond != nil }

    /// Waits until the shared budget and the request's own both hold a slice, then grants what they hold, at
    /// most `wanted`.
    /// - Parameters:
    ///   - wanted: The bytes the transport would like to move.
    ///   - transfer: The request, direction and the request's own limit.
    /// - Returns: The bytes that may move now, in `1...wanted`.
    /// - Throws: `CancellationError` when the task is cancelled, before or while waiting.
    public func grant(upTo wanted: Int, for transfer: BandwidthTransfer) async throws -> Int {
        while true {
            try Task.checkCancellation()
            // The time is read under the lock, so the state never sees it go backwards.
            switch state.withLock({ $0.ask(wanted, for: transfer, at: timeline.now()) }) {
            case .grant(let granted): return granted
            case .wait(let until): try await timeline.sleep(until)
            }
        }
    }

    /// Gives the unused part of a grant back to the budgets, or charges bytes beyond it, and counts what moved.
    /// - Parameters:
    ///   - used: The body bytes that moved.
    ///   - granted: The grant they settle, or 0 for bytes that moved without asking.
    ///   - transfer: The request, direction and the request's own limit.
    public func settle(used: Int, granted: Int, for transfer: BandwidthTransfer) {
        state.withLock { $0.settle(used: used, granted: granted, for: transfer, at: timeline.now()) }
    }

    /// The mean body bytes per second, both directions, of the complete one-second windows among the last five;
    /// 0 before the first window ends and after a window without a byte.
    public var averageBytesPerSecond: Int {
        state.withLock { $0.average(at: timeline.now()) }
    }
}
