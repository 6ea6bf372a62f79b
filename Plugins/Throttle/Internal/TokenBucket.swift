/// A budget of bytes refilled continuously at `rate` bytes per second, holding at most ``capacity``.
///
/// The capacity is a twentieth of a second's budget and the slice an ask waits for is half of it: the budget of a
/// one-second window is handed out in small slices paced across the window, so no second runs more than 5 % over
/// the rate, and a waiter that wakes up to 25 ms late loses nothing. Settling more than was granted (body bytes
/// read with the head, or a limiter asked after the bytes moved) puts the bucket into debt, which every ask waits
/// out: ASIHTTPRequest's penalty of `excess / limit` seconds for the whole client.
///
/// A pure value: the caller passes the time (an offset on the limiter's clock) to every call.
struct TokenBucket: Sendable, Equatable {
    /// Bytes are kept in billionths, so that a rate times nanoseconds is exact.
    private static let scale: Int128 = 1_000_000_000

    /// The refill rate in bytes per second, at least 1.
    private(set) var rate: Int
    /// The most bytes the bucket holds, at least 1.
    private(set) var capacity: Int
    /// The grant an ask waits for when it wants more, at least 1 and at most ``capacity``.
    private(set) var slice: Int
    /// The bytes available, in billionths of a byte; negative while in debt.
    private var credit: Int128 = 0
    /// When ``credit`` was last brought up to date.
    private(set) var updated: Duration

    /// An empty bucket: the first grant waits for a slice, so `n` bytes take `n / rate` seconds from the start.
    /// - Parameters:
    ///   - rate: Bytes per second, at least 1.
    ///   - now: The current time.
    init(rate: Int, at now: Duration) {
        self.rate = 1
        capacity = 1
        slice = 1
        updated = now
        setRate(rate)
    }

    /// The bytes available now (as of ``updated``), with fractions; negative while in debt.
    var tokens: Double { Double(credit) / Double(Self.scale) }

    /// The whole bytes available now, 0 when in debt.
    var available: Int { credit > 0 ? Int(clamping: credit / Self.scale) : 0 }

    /// Changes the rate, keeping the bytes available (at most the new capacity) and any debt.
    mutating func setRate(_ rate: Int) {
        self.rate = max(1, rate)
        capacity = max(1, self.rate / 20)
        slice = max(1, capacity / 2)
        credit = min(credit, Int128(capacity) * Self.scale)
    }

    /// Adds what the rate earned since the last update, up to the capacity.
    mutating func refill(to now: Duration) {
        guard now > updated else { return }
        let limit = Int128(capacity) * Self.scale
        credit = min(limit, credit + Int128(rate) * (now - updated).nanoseconds)
        updated = now
    }

    /// How long until `amount` bytes are available (zero when they are), as of the last refill.
    func delay(until amount: Int) -> Duration {
        let missing = Int128(amount) * Self.scale - credit
        guard missing > 0 else { return .zero }
        let rate = Int128(rate)
        // Rounded up, so the waiter wakes with the bytes there.
        return .nanoseconds(Int64(clamping: (missing + rate - 1) / rate))
    }

    /// Moves `count` bytes out (a grant) or back in (a negative count), or charges bytes that moved unasked:
    /// the balance drops by `count`, and never rises above the capacity.
    mutating func spend(_ count: Int) {
        credit = min(Int128(capacity) * Self.scale, credit - Int128(count) * Self.scale)
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int128 {
        let parts = components
        return Int128(parts.seconds) * 1_000_000_000 + Int128(parts.attoseconds / 1_000_000_000)
    }
}
