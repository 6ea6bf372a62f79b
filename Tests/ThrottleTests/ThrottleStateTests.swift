import HTTPCore
import Testing

@testable import Throttle

/// The limiter's decisions as pure values, driven by simulated readers that ask as soon as their last grant was
/// settled: pacing, the shared budget with the requests' own limits, debt, and forgetting idle requests.
@Suite struct ThrottleStateTests {
    static let reader = BandwidthTransfer(requestID: .next(), direction: .download)

    @Test func theFirstAskWaitsForASliceThenGetsIt() {
        var state = ThrottleState(bytesPerSecond: 1_000, at: .zero)
        #expect(state.ask(64 * 1024, for: Self.reader, at: .zero) == .wait(until: .milliseconds(25)))
        #expect(state.ask(64 * 1024, for: Self.reader, at: .milliseconds(25)) == .grant(25))
        // A small ask needs only what it wants.
        #expect(state.ask(3, for: Self.reader, at: .milliseconds(28)) == .grant(3))
    }

    @Test func aGreedyReaderGetsTheRateAndNoSecondAboveIt() {
        var state = ThrottleState(bytesPerSecond: 10_000, at: .zero)
        let perSecond = Simulation(readers: [Self.reader]).run(&state, for: .seconds(10))[Self.reader]!
        #expect(perSecond.count == 10)
        // Each second: the rate, plus at most the bucket's capacity (5 %) in the first one.
        for (second, bytes) in perSecond.enumerated() {
            #expect(bytes <= 10_500, "second \(second): \(bytes) bytes")
            #expect(bytes >= 9_500, "second \(second): \(bytes) bytes")
        }
        #expect(abs(perSecond.reduce(0, +) - 100_000) <= 500)
    }

    @Test func aRequestWithItsOwnLimitGetsItAndTheOthersShareTheRest() {
        var state = ThrottleState(bytesPerSecond: 10_000, at: .zero)
        let limited = BandwidthTransfer(requestID: .next(), direction: .download, limit: 2_000)
        let free = BandwidthTransfer(requestID: .next(), direction: .upload)
        let perSecond = Simulation(readers: [limited, free]).run(&state, for: .seconds(10))
        let limitedTotal = perSecond[limited]!.reduce(0, +)
        let freeTotal = perSecond[free]!.reduce(0, +)
        #expect(abs(limitedTotal - 20_000) <= 500, "the request's own limit: \(limitedTotal)")
        #expect(abs(limitedTotal + freeTotal - 100_000) <= 1_000, "the shared budget: \(limitedTotal + freeTotal)")
        for second in 0..<10 {
            #expect(perSecond[limited]![second] <= 2_100)
            #expect(perSecond[limited]![second] + perSecond[free]![second] <= 10_500)
        }
    }

    @Test func theSharedBudgetBindsARequestWhoseOwnLimitIsHigher() {
        var state = ThrottleState(bytesPerSecond: 1_000, at: .zero)
        let generous = BandwidthTransfer(requestID: .next(), direction: .download, limit: 50_000)
        let total = Simulation(readers: [generous]).run(&state, for: .seconds(10))[generous]!.reduce(0, +)
        #expect(abs(total - 10_000) <= 100)
    }

    @Test func aRequestsOwnLimitAppliesWithoutASharedBudget() {
        var state = ThrottleState(bytesPerSecond: nil, at: .zero)
        let limited = BandwidthTransfer(requestID: .next(), direction: .download, limit: 4_000)
        #expect(state.ask(1 << 20, for: Self.reader, at: .zero) == .grant(1 << 20), "no limit: everything at once")
        let total = Simulation(readers: [limited]).run(&state, for: .seconds(5))[limited]!.reduce(0, +)
        #expect(abs(total - 20_000) <= 200)
    }

    @Test func bytesBeyondAGrantAreDebtEveryRequestWaitsOut() {
        var state = ThrottleState(bytesPerSecond: 1_000, at: .zero)
        // 3,000 bytes moved without asking: three seconds of budget, which every request waits out.
        state.settle(used: 3_000, granted: 0, for: Self.reader, at: .zero)
        let other = BandwidthTransfer(requestID: .next(), direction: .upload)
        #expect(state.ask(100, for: other, at: .seconds(1)) == .wait(until: .milliseconds(3_025)))
        #expect(state.ask(100, for: other, at: .milliseconds(3_025)) == .grant(25))
    }

    @Test func theUnusedPartOfAGrantGoesBack() {
        var state = ThrottleState(bytesPerSecond: 1_000, at: .zero)
        #expect(state.ask(100, for: Self.reader, at: .milliseconds(50)) == .grant(50))
        state.settle(used: 10, granted: 50, for: Self.reader, at: .milliseconds(50))
        #expect(state.ask(100, for: Self.reader, at: .milliseconds(50)) == .grant(40))
    }

    @Test func aRequestsDebtHoldsBackThatRequestOnly() {
        var state = ThrottleState(bytesPerSecond: nil, at: .zero)
        let limited = BandwidthTransfer(requestID: .next(), direction: .download, limit: 1_000)
        state.settle(used: 2_000, granted: 0, for: limited, at: .zero)
        #expect(state.ask(10, for: limited, at: .zero) == .wait(until: .milliseconds(2_010)))
        #expect(state.ask(10, for: Self.reader, at: .zero) == .grant(10))
    }

    @Test func requestsIdleForAWindowAreForgottenUnlessInDebt() {
        var state = ThrottleState(bytesPerSecond: nil, at: .zero)
        let idle = BandwidthTransfer(requestID: .next(), direction: .download, limit: 1_000)
        let indebted = BandwidthTransfer(requestID: .next(), direction: .download, limit: 1_000)
        _ = state.ask(10, for: idle, at: .zero)
        state.settle(used: 10_000, granted: 0, for: indebted, at: .zero)
        #expect(state.requests.count == 2)
        _ = state.ask(10, for: Self.reader, at: .seconds(2))
        #expect(state.requests.keys.sorted { $0.rawValue < $1.rawValue } == [indebted.requestID])
        _ = state.ask(10, for: Self.reader, at: .seconds(20))
        #expect(state.requests.isEmpty)
    }

    @Test func theAverageCountsSettledBytesInBothDirections() {
        var state = ThrottleState(bytesPerSecond: nil, at: .zero)
        state.settle(used: 600, granted: 600, for: Self.reader, at: .milliseconds(10))
        let upload = BandwidthTransfer(requestID: .next(), direction: .upload)
        state.settle(used: 400, granted: 0, for: upload, at: .milliseconds(20))
        #expect(state.average(at: .milliseconds(500)) == 0)
        #expect(state.average(at: .milliseconds(1_100)) == 1_000)
        #expect(state.average(at: .milliseconds(2_100)) == 0)
    }

    @Test func changingTheSharedRateTakesEffectAtTheNextAsk() {
        var state = ThrottleState(bytesPerSecond: 1_000, at: .zero)
        state.setSharedRate(nil, at: .zero)
        #expect(state.sharedRate == nil)
        #expect(state.ask(5_000, for: Self.reader, at: .zero) == .grant(5_000))
        state.setSharedRate(0, at: .zero)
        #expect(state.sharedRate == nil, "0 turns it off, as in ASIHTTPRequest")
        state.setSharedRate(2_000, at: .zero)
        #expect(state.ask(5_000, for: Self.reader, at: .zero) == .wait(until: .milliseconds(25)))
    }
}

/// Readers that each ask for 64 KiB as soon as their last grant was settled (at once, the whole grant used),
/// in simulated time; returns the bytes each got in every second.
struct Simulation {
    let readers: [BandwidthTransfer]

    func run(_ state: inout ThrottleState, for duration: Duration) -> [BandwidthTransfer: [Int]] {
        let seconds = Int(duration.components.seconds)
        var perSecond = Dictionary(uniqueKeysWithValues: readers.map { ($0, Array(repeating: 0, count: seconds)) })
        var next = Dictionary(uniqueKeysWithValues: readers.map { ($0, Duration.zero) })
        while true {
            // The reader due first (ties: the order given) asks.
            guard let (reader, now) = readers.map({ ($0, next[$0]!) }).min(by: { $0.1 < $1.1 }), now < duration
            else { break }
            switch state.ask(64 * 1024, for: reader, at: now) {
            case .grant(let granted):
                state.settle(used: granted, granted: granted, for: reader, at: now)
                perSecond[reader]![Int(now.components.seconds)] += granted
                next[reader] = now + .microseconds(1)
            case .wait(let until):
                next[reader] = until
            }
        }
        return perSecond
    }
}
