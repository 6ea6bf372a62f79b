/// ASIHTTPRequest's bandwidth measurement: body bytes counted in one-second windows, averaged over the last five.
///
/// A window starts with the first bytes after an idle window and the next one follows it directly. The average
/// is the mean of the complete windows among the last five; it is 0 before the first window ends and again once a
/// whole window passed without a byte (ASIHTTPRequest's `recordBandwidthUsage` clears its history then). A pure
/// value: the caller passes the time.
struct BandwidthWindows: Sendable, Equatable {
    /// The length of one window.
    static let length = Duration.seconds(1)
    /// How many complete windows the average spans.
    static let averaged = 5

    /// When the current window started; `nil` before the first byte.
    private(set) var start: Duration?
    /// The bytes of the current window.
    private(set) var current = 0
    /// The bytes of the complete windows before it, oldest first, at most ``averaged``.
    private(set) var completed: [Int] = []

    /// Counts `bytes` that moved at `now`.
    mutating func record(_ bytes: Int, at now: Duration) {
        guard bytes > 0 else { return }
        advance(to: now)
        if start == nil { start = now }
        current += bytes
    }

    /// The mean bytes per second of the complete windows among the last five, as of `now`; 0 when idle.
    func average(at now: Duration) -> Int {
        guard let start, now < start + Self.length * 2 else { return 0 }
        var windows = completed
        if now >= start + Self.length { windows.append(current) }
        let recent = windows.suffix(Self.averaged)
        guard !recent.isEmpty else { return 0 }
        return recent.reduce(0, +) / recent.count
    }

    /// Closes the current window when `now` is past it; after an idle window, forgets every window.
    private mutating func advance(to now: Duration) {
        guard let started = start, now >= started + Self.length else { return }
        if now >= started + Self.length * 2 {
            start = nil
            completed = []
        } else {
            completed.append(current)
            if completed.count > Self.averaged { completed.removeFirst(completed.count - Self.averaged) }
            start = started + Self.length
        }
        current = 0
    }
}
