@testable import SocketTransport
import Testing

/// ``BusyPoll``: the event loop's poll limit adapts as `haltpoll`'s does, and stays off for work that comes late.
@Suite struct BusyPollTests {
    @Test func aShortIdlePeriodStartsPollingAndLongerOnesDoubleIt() {
        var poll = BusyPoll(maximum: 200_000)
        #expect(poll.limit == 0)
        poll.adjust(idle: 10_000)
        #expect(poll.limit == BusyPoll.growStart)
        poll.adjust(idle: 80_000)  // longer than the limit, within the maximum: polling longer would have caught it
        #expect(poll.limit == 100_000)
        poll.adjust(idle: 150_000)
        #expect(poll.limit == 200_000)
        poll.adjust(idle: 190_000)
        #expect(poll.limit == 200_000, "never above the maximum")
    }

    @Test func workCaughtWhilePollingKeepsTheLimit() {
        var poll = BusyPoll(maximum: 200_000)
        poll.adjust(idle: 10_000)
        poll.adjust(idle: 30_000)
        #expect(poll.limit == BusyPoll.growStart)
    }

    @Test func longIdlePeriodsHalveTheLimitAndTurnPollingOff() {
        var poll = BusyPoll(maximum: 200_000)
        for idle: UInt64 in [10_000, 80_000, 150_000] { poll.adjust(idle: idle) }
        #expect(poll.limit == 200_000)
        poll.adjust(idle: 5_000_000)
        #expect(poll.limit == 100_000)
        poll.adjust(idle: 5_000_000)
        #expect(poll.limit == 50_000)
        poll.adjust(idle: 5_000_000)
        #expect(poll.limit == 0, "below the start, polling stops")
        poll.adjust(idle: 5_000_000)
        #expect(poll.limit == 0)
    }

    @Test func aZeroMaximumNeverPolls() {
        var poll = BusyPoll(maximum: 0)
        for idle: UInt64 in [1_000, 10_000, 100_000, 0] { poll.adjust(idle: idle) }
        #expect(poll.limit == 0)
    }

    @Test func aContendedCPUStopsPollingUntilShortIdlePeriodsGrowItAgain() {
        var poll = BusyPoll(maximum: 200_000)
        for idle: UInt64 in [10_000, 80_000, 150_000] { poll.adjust(idle: idle) }
        poll.contended()
        #expect(poll.limit == 0)
        poll.adjust(idle: 20_000)
        #expect(poll.limit == BusyPoll.growStart)
    }
}
