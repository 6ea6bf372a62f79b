import HTTPCore

/// The limiter's state as a pure value: the shared bucket, one bucket per request with its own limit, and the
/// measurement windows. ``ThrottleLimiter`` holds it in a `Mutex` and does the waiting outside the lock.
struct ThrottleState: Sendable {
    /// What an ask gets.
    enum Decision: Sendable, Equatable {
        /// Move this many bytes now (already taken from the buckets).
        case grant(Int)
        /// Ask again at this time (on the limiter's clock).
        case wait(until: Duration)
    }

    /// A request's own bucket and when the request last asked or settled.
    struct RequestBudget: Sendable, Equatable {
        var bucket: TokenBucket
        var touched: Duration
    }

    /// The budget every request shares; `nil` without a shared limit.
    private(set) var shared: TokenBucket?
    /// The buckets of requests with a limit of their own.
    private(set) var requests: [RequestID: RequestBudget] = [:]
    /// Body bytes per one-second window, both directions.
    private(set) var windows = BandwidthWindows()
    private var lastSweep = Duration.zero

    /// A state with a shared limit of `bytesPerSecond` (none when `nil` or 0).
    init(bytesPerSecond: Int?, at now: Duration) {
        setSharedRate(bytesPerSecond, at: now)
        lastSweep = now
    }

    /// The shared limit in bytes per second, `nil` for none.
    var sharedRate: Int? { shared?.rate }

    /// Sets the shared limit (none when `nil` or 0); a new budget starts empty, a changed one keeps its debt.
    mutating func setSharedRate(_ rate: Int?, at now: Duration) {
        guard let rate, rate > 0 else {
            shared = nil
            return
        }
        if shared == nil {
            shared = TokenBucket(rate: rate, at: now)
        } else {
            shared?.refill(to: now)
            shared?.setRate(rate)
        }
    }

    /// Grants up to `wanted` bytes when both the shared budget and the request's own hold at least a slice (or
    /// `wanted`, when less), taking the grant from both; otherwise says when to ask again.
    mutating func ask(_ wanted: Int, for transfer: BandwidthTransfer, at now: Duration) -> Decision {
        sweep(at: now)
        let wanted = max(1, wanted)
        shared?.refill(to: now)
        let own = ownBucket(for: transfer, at: now)
        var needed = wanted
        if let shared { needed = min(needed, shared.slice) }
        if let own { needed = min(needed, own.bucket.slice) }
        let delay = max(shared?.delay(until: needed) ?? .zero, own?.bucket.delay(until: needed) ?? .zero)
        guard delay == .zero else { return .wait(until: now + delay) }
        var granted = wanted
        if let shared { granted = min(granted, shared.available) }
        if let own { granted = min(granted, own.bucket.available) }
        shared?.spend(granted)
        if own != nil { requests[transfer.requestID]?.bucket.spend(granted) }
        return .grant(granted)
    }

    /// Returns the unused part of a grant to both budgets, or charges bytes beyond it (debt that later asks wait
    /// out), and counts what moved in the current window.
    mutating func settle(used: Int, granted: Int, for transfer: BandwidthTransfer, at now: Duration) {
        let used = max(0, used)
        let granted = max(0, granted)
        windows.record(used, at: now)
        guard used != granted else {
            if requests[transfer.requestID] != nil { requests[transfer.requestID]?.touched = now }
            return
        }
        shared?.refill(to: now)
        shared?.spend(used - granted)
        if ownBucket(for: transfer, at: now) != nil {
            requests[transfer.requestID]?.bucket.spend(used - granted)
        }
    }

    /// The mean of the recent complete windows at `now`.
    func average(at now: Duration) -> Int {
        windows.average(at: now)
    }

    /// The request's bucket, brought up to date (made empty for a request's first call), or `nil` when the
    /// request has no limit of its own.
    private mutating func ownBucket(for transfer: BandwidthTransfer, at now: Duration) -> RequestBudget? {
        guard let limit = transfer.limit, limit > 0 else { return nil }
        var budget =
            requests[transfer.requestID] ?? RequestBudget(bucket: TokenBucket(rate: limit, at: now), touched: now)
        if budget.bucket.rate != limit { budget.bucket.setRate(limit) }
        budget.bucket.refill(to: now)
        budget.touched = now
        requests[transfer.requestID] = budget
        return budget
    }

    /// Once per window, forgets the requests idle for a window whose budget holds no debt (no end-of-request call
    /// comes; a request that comes back starts with an empty bucket, which is never more than it had).
    private mutating func sweep(at now: Duration) {
        guard now >= lastSweep + BandwidthWindows.length else { return }
        lastSweep = now
        requests = requests.filter { _, budget in
            var bucket = budget.bucket
            bucket.refill(to: now)
            return budget.touched + BandwidthWindows.length > now || bucket.tokens < 0
        }
    }
}
