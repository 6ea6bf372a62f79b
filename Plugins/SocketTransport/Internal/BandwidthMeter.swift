import HTTPCore

/// The request's bandwidth limiter bound to one direction of its body: ask before moving bytes, settle after.
/// Every read of a response (its head included) and every body write is asked for, so no body byte moves
/// without a grant.
///
/// Built only when the context has a limiter (``init(_:direction:)`` returns `nil` otherwise), so the unlimited
/// path costs one `nil` check and no `await`.
struct BandwidthMeter {
    let limiter: any BandwidthLimiter
    let transfer: BandwidthTransfer

    /// The meter for `direction`, or `nil` when the request has no limiter.
    init?(_ context: RequestContext, direction: TransferDirection) {
        guard let limiter = context.bandwidth else { return nil }
        self.limiter = limiter
        transfer = context.bandwidthTransfer(direction)
    }

    /// Waits for the limiter and returns how many bytes may move, in `1...wanted`.
    /// - Throws: `CancellationError`.
    func grant(upTo wanted: Int) async throws -> Int {
        let wanted = max(1, wanted)
        let granted = try await limiter.grant(upTo: wanted, for: transfer)
        return max(1, min(wanted, granted))
    }

    /// Settles a grant with the bytes that moved (0 or more).
    func settle(used: Int, granted: Int) {
        limiter.settle(used: used, granted: granted, for: transfer)
    }

    /// The body bytes in a batch of parser events.
    static func bodyBytes(in events: [HTTP1Event]) -> Int {
        var count = 0
        for event in events {
            if case .body(let bytes) = event { count += bytes.count }
        }
        return count
    }
}
