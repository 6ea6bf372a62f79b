import HTTPCore
import HTTPTesting
import Testing

/// The bandwidth limiter fake passes the conformance suite, and the suite catches limiters that break the contract.
@Suite struct BandwidthLimiterConformanceTests {
    @Test func budgetFakeConforms() async throws {
        try await BandwidthLimiterConformance.run { RecordingBandwidthLimiter.budget(1_000) }
    }

    @Test func limiterThatNeverWaitsFails() async throws {
        await #expect(throws: ConformanceFailure.self) {
            try await BandwidthLimiterConformance.run { RecordingBandwidthLimiter.unlimited }
        }
    }

    @Test func limiterThatGrantsMoreThanAskedFails() async throws {
        await #expect(throws: ConformanceFailure.self) {
            try await BandwidthLimiterConformance.run { Overgranting() }
        }
    }

    @Test func limiterThatIsBusyWhenIdleFails() async throws {
        let limiter = RecordingBandwidthLimiter.budget(1_000)
        limiter.average = 7
        await #expect(throws: ConformanceFailure.self) {
            try await BandwidthLimiterConformance.run { limiter }
        }
    }

    @Test func fakeRecordsAsksGrantsAndSettlements() async throws {
        let limiter = RecordingBandwidthLimiter(grant: { wanted, _ in wanted * 10 })
        let transfer = BandwidthTransfer(requestID: .next(), direction: .upload, limit: 5)
        let granted = try await limiter.grant(upTo: 8, for: transfer)
        limiter.settle(used: 3, granted: granted, for: transfer)
        limiter.settle(used: 4, granted: 0, for: transfer)
        #expect(granted == 8)
        #expect(limiter.calls == [
            .asked(8, transfer), .granted(8, transfer), .settled(used: 3, granted: 8, transfer),
            .settled(used: 4, granted: 0, transfer),
        ])
        #expect(limiter.settledBytes(.upload) == 7)
        #expect(limiter.settledBytes(.download) == 0)
        #expect(limiter.transfers == [transfer])
    }

    @Test func budgetFakeReturnsUnusedBytes() async throws {
        let limiter = RecordingBandwidthLimiter.budget(10)
        let transfer = BandwidthTransfer(requestID: .next(), direction: .download)
        let first = try await limiter.grant(upTo: 10, for: transfer)
        limiter.settle(used: 4, granted: first, for: transfer)
        let second = try await limiter.grant(upTo: 10, for: transfer)
        #expect(first == 10)
        #expect(second == 6)
    }
}

/// Grants one byte more than asked.
private struct Overgranting: BandwidthLimiter {
    func grant(upTo wanted: Int, for transfer: BandwidthTransfer) async throws -> Int { wanted + 1 }
    func settle(used: Int, granted: Int, for transfer: BandwidthTransfer) {}
    var averageBytesPerSecond: Int { 0 }
}
