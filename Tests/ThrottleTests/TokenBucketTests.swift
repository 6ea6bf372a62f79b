import Testing

@testable import Throttle

/// The token bucket as a pure value: it starts empty, refills at its rate up to a twentieth of a second's budget,
/// and goes into debt when charged more than it holds.
@Suite struct TokenBucketTests {
    @Test func startsEmptyAndRefillsAtItsRateUpToItsCapacity() {
        var bucket = TokenBucket(rate: 1_000, at: .zero)
        #expect(bucket.capacity == 50)
        #expect(bucket.slice == 25)
        #expect(bucket.available == 0)
        bucket.refill(to: .milliseconds(20))
        #expect(bucket.available == 20)
        bucket.refill(to: .seconds(10))
        #expect(bucket.available == 50, "never more than the capacity, however long it was idle")
    }

    @Test func delayIsTheTimeUntilTheBytesAreThere() {
        var bucket = TokenBucket(rate: 1_000, at: .zero)
        #expect(bucket.delay(until: 25) == .milliseconds(25))
        bucket.refill(to: .milliseconds(10))
        #expect(bucket.delay(until: 25) == .milliseconds(15))
        bucket.refill(to: .milliseconds(25))
        #expect(bucket.delay(until: 25) == .zero)
    }

    @Test func spendingMoreThanItHoldsIsDebtThatTheRateRepays() {
        var bucket = TokenBucket(rate: 1_000, at: .zero)
        bucket.spend(2_000)
        #expect(bucket.tokens == -2_000)
        #expect(bucket.available == 0)
        #expect(bucket.delay(until: 1) == .milliseconds(2_001))
        bucket.refill(to: .seconds(2))
        #expect(bucket.tokens == 0)
        bucket.spend(-10_000)
        #expect(bucket.available == 50, "bytes given back never raise it above the capacity")
    }

    @Test func tinyRatesStillGrantOneByte() {
        var bucket = TokenBucket(rate: 10, at: .zero)
        #expect(bucket.capacity == 1)
        #expect(bucket.slice == 1)
        bucket.refill(to: .milliseconds(100))
        #expect(bucket.available == 1)
    }

    @Test func aNewRateKeepsTheDebtAndClampsTheBalance() {
        var bucket = TokenBucket(rate: 10_000, at: .zero)
        bucket.refill(to: .seconds(1))
        #expect(bucket.available == 500)
        bucket.setRate(1_000)
        #expect(bucket.available == 50)
        bucket.spend(1_050)
        bucket.setRate(100_000)
        #expect(bucket.tokens == -1_000)
    }
}
