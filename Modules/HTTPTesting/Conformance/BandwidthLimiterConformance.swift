public import HTTPCore

/// Checks that a ``BandwidthLimiter`` keeps the contract a transport relies on. Run it from your plug-in's tests
/// with a limiter whose budget is small (a few thousand bytes per second at most):
///
/// ```swift
/// @Test func conforms() async throws {
///     try await BandwidthLimiterConformance.run { ThrottleLimiter(bytesPerSecond: 1_000) }
/// }
/// ```
///
/// The checks: the average is 0 while idle; every grant is in `1...wanted`, also for a request with its own limit;
/// the unused part of a grant and bytes that moved without asking can be settled; and once the budget is
/// overspent, an ask waits and ends with `CancellationError` when its task is cancelled. Asks may wait up to a
/// measurement window each. The last check overspends by a mebibyte and then cancels a waiting ask: a limiter that
/// grants it fails, and one that ignores cancellation makes the check hang.
public enum BandwidthLimiterConformance {
    /// Runs every check, each on a fresh limiter.
    /// - Parameter makeLimiter: Makes a fresh limiter with a small budget.
    /// - Throws: ``ConformanceFailure`` for the first failed check, or what the limiter throws.
    public static func run(_ makeLimiter: () async throws -> any BandwidthLimiter) async throws {
        var checker = ConformanceChecker(suite: "BandwidthLimiterConformance")
        let download = BandwidthTransfer(requestID: .next(), direction: .download)
        let upload = BandwidthTransfer(requestID: .next(), direction: .upload)

        checker.check = "averageIsZeroWhenIdle"
        var limiter = try await makeLimiter()
        try checker.expect(limiter.averageBytesPerSecond == 0,
                           "a fresh limiter reports \(limiter.averageBytesPerSecond) bytes/s")

        checker.check = "grantsWithinAsked"
        for (wanted, transfer) in [(1, download), (2, upload), (100, download), (1 << 20, upload)] {
            let granted = try await limiter.grant(upTo: wanted, for: transfer)
            try checker.expect((1...wanted).contains(granted), "asked \(wanted), granted \(granted)")
            limiter.settle(used: 0, granted: granted, for: transfer)
        }
        let ownLimit = BandwidthTransfer(requestID: .next(), direction: .download, limit: 10)
        let limited = try await limiter.grant(upTo: 100, for: ownLimit)
        try checker.expect((1...100).contains(limited), "asked 100 with a limit of 10/s, granted \(limited)")
        limiter.settle(used: 0, granted: limited, for: ownLimit)

        checker.check = "settlesTheUnusedPart"
        limiter = try await makeLimiter()
        let first = try await limiter.grant(upTo: 100, for: download)
        limiter.settle(used: first / 2, granted: first, for: download)
        let second = try await limiter.grant(upTo: 100, for: download)
        try checker.expect((1...100).contains(second), "after a short read, asked 100, granted \(second)")
        limiter.settle(used: second, granted: second, for: download)
        try checker.expect(limiter.averageBytesPerSecond >= 0, "the average is negative")

        checker.check = "cancellationWhileWaiting"
        limiter.settle(used: 1 << 20, granted: 0, for: download)
        let spent = limiter
        // The ask runs in a group of its own, cancelled once it had a moment to start waiting.
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            group.addTask {
                do {
                    return .granted(try await spent.grant(upTo: 100, for: download))
                } catch is CancellationError {
                    return .cancelled
                } catch {
                    return .failed("\(type(of: error))")
                }
            }
            try? await Task.sleep(for: .milliseconds(50))
            group.cancelAll()
            return await group.next() ?? .failed("no result")
        }
        try checker.expect(outcome == .cancelled, "with the budget overspent and the task cancelled, got \(outcome)")
    }

    private enum Outcome: Sendable, Equatable {
        case granted(Int)
        case cancelled
        case failed(String)
    }
}
