import HTTPCore
import HTTPTesting
import TestSupport
import Testing
import Throttle

/// The limiter on a manual clock: waits, cancellation while waiting, the average and its idle decay, the
/// conformance suite, and its configuration.
@Suite struct ThrottleLimiterTests {
    static let download = BandwidthTransfer(requestID: .next(), direction: .download)

    @Test func conformsToTheBandwidthLimiterContract() async throws {
        try await BandwidthLimiterConformance.run { try ThrottleLimiter(bytesPerSecond: 1_000) }
        try await BandwidthLimiterConformance.run {
            try ThrottleLimiter(bytesPerSecond: ThrottleLimiter.wwanBytesPerSecond)
        }
    }

    @Test func anAskWaitsOnTheClockUntilASliceIsThere() async throws {
        let clock = ManualClock()
        let limiter = try ThrottleLimiter(bytesPerSecond: 1_000, clock: clock)
        let ask = Task { try await limiter.grant(upTo: 4_096, for: Self.download) }
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.advance(by: .milliseconds(24))
        #expect(clock.sleeperCount == 1, "not yet: a slice is 25 bytes, 25 ms at 1,000 bytes/s")
        clock.advance(by: .milliseconds(1))
        #expect(try await ask.value == 25)
    }

    @Test func cancellationWhileWaitingThrowsCancellationError() async throws {
        let clock = ManualClock()
        let limiter = try ThrottleLimiter(bytesPerSecond: 1_000, clock: clock)
        limiter.settle(used: 1_000_000, granted: 0, for: Self.download)
        let ask = Task { try await limiter.grant(upTo: 100, for: Self.download) }
        #expect(await eventually { clock.sleeperCount == 1 })
        ask.cancel()
        await #expect(throws: CancellationError.self) { _ = try await ask.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCancelledTaskIsNotGrantedEvenWhenBytesAreThere() async throws {
        let limiter = try ThrottleLimiter(bytesPerSecond: nil)
        let ask = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await limiter.grant(upTo: 100, for: Self.download)
        }
        await #expect(throws: CancellationError.self) { _ = try await ask.value }
    }

    @Test func aRequestsOwnLimitAndTheSharedBudgetMustBothGrant() async throws {
        let clock = ManualClock()
        let limiter = try ThrottleLimiter(bytesPerSecond: 10_000, clock: clock)
        let limited = BandwidthTransfer(requestID: .next(), direction: .download, limit: 1_000)
        clock.advance(by: .seconds(1))
        // The shared budget is full (500 bytes), the request's own is new and empty: it waits for its slice.
        let ask = Task { try await limiter.grant(upTo: 4_096, for: limited) }
        #expect(await eventually { clock.sleeperCount == 1 })
        #expect(try await limiter.grant(upTo: 4_096, for: Self.download) == 500)
        clock.advance(by: .milliseconds(25))
        // Now the request's own budget holds 25 bytes, and the shared one 250: the grant is the smaller.
        #expect(try await ask.value == 25)
    }

    @Test func theAverageCoversTheLastWindowsAndDecaysToZeroWhenIdle() async throws {
        let clock = ManualClock()
        let limiter = try ThrottleLimiter(bytesPerSecond: nil, clock: clock)
        #expect(limiter.averageBytesPerSecond == 0)
        for _ in 0..<3 {
            limiter.settle(used: 2_000, granted: 2_000, for: Self.download)
            clock.advance(by: .milliseconds(500))
            limiter.settle(used: 1_000, granted: 0, for: Self.download)
            clock.advance(by: .milliseconds(500))
        }
        #expect(limiter.averageBytesPerSecond == 3_000)
        clock.advance(by: .milliseconds(999))
        #expect(limiter.averageBytesPerSecond == 3_000)
        clock.advance(by: .milliseconds(1))
        #expect(limiter.averageBytesPerSecond == 0, "a whole window passed without a byte")
    }

    @Test func theSharedBudgetCanBeChangedAndTurnedOff() async throws {
        let limiter = try ThrottleLimiter(bytesPerSecond: ThrottleLimiter.wwanBytesPerSecond)
        #expect(limiter.isThrottled)
        #expect(limiter.bytesPerSecond == 14_800)
        limiter.bytesPerSecond = 0
        #expect(!limiter.isThrottled)
        #expect(limiter.bytesPerSecond == nil)
        #expect(try await limiter.grant(upTo: 1 << 20, for: Self.download) == 1 << 20)
        limiter.bytesPerSecond = 2_000
        #expect(limiter.bytesPerSecond == 2_000)
    }

    @Test func aNegativeBudgetIsAnInvalidConfiguration() {
        #expect { try ThrottleLimiter(bytesPerSecond: -1) } throws: { error in
            (error as? ClientError)?.code == .invalidConfiguration
        }
    }

    @Test func theFactoryBuildsALimiterForTheClientsSlot() throws {
        let limiter: any BandwidthLimiter = try .throttle(bytesPerSecond: 1_000)
        #expect((limiter as? ThrottleLimiter)?.bytesPerSecond == 1_000)
    }
}
