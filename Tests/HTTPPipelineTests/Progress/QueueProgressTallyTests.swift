import HTTPCore
import Testing

@testable import HTTPPipeline

@Suite struct QueueProgressTallyTests {
    let a = RequestID(rawValue: 1)
    let b = RequestID(rawValue: 2)
    let c = RequestID(rawValue: 3)

    func event(_ id: RequestID, delta: Int64 = 0, size: Int64 = 0) -> ProgressEvent {
        ProgressEvent(
            requestID: id, direction: .download, completedBytes: 0, expectedBytes: nil, byteDelta: delta,
            sizeIncrement: size)
    }

    @Test func unitsAddUpAndEndAtOne() {
        var tally = QueueProgressTally()
        tally.add(a, size: nil, isUnit: true)
        tally.add(b, size: nil, isUnit: true)
        #expect(tally.fraction == 0 && tally.total == 2)
        tally.apply(event(a, delta: 500, size: 500))  // bytes do not move a unit
        #expect(tally.done == 0)
        tally.complete(a)
        #expect(tally.fraction == 0.5)
        tally.complete(b)
        #expect(tally.fraction == 1 && tally.total == 2)
    }

    @Test func aPresizedRequestKeepsItsSizeThroughARedirect() {
        var tally = QueueProgressTally()
        tally.add(a, size: nil, isUnit: false)
        tally.presize(a, length: 1_000)
        #expect(tally.total == 1_000)
        tally.apply(event(a, size: 20))  // the redirect's own body announced
        tally.apply(event(a, size: -20))  // and taken back
        tally.apply(event(a, delta: 400, size: 1_000))
        #expect(tally.total == 1_000 && tally.done == 400)
        tally.complete(a)
        #expect(tally.fraction == 1)
    }

    @Test func anUnsizedRequestCountsOneUnitWhenOver() {
        var tally = QueueProgressTally()
        tally.add(a, size: nil, isUnit: false)
        tally.add(b, size: 100, isUnit: false)
        tally.apply(event(b, delta: 100))
        #expect(tally.fraction == 1)  // nothing else is known yet
        tally.apply(event(a, delta: 50))  // bytes of unknown total
        tally.complete(a)
        tally.complete(b)
        #expect(tally.total == 101 && tally.done == 101)
    }

    @Test func bytesAreClampedToTheSize() {
        var tally = QueueProgressTally()
        tally.add(a, size: 10, isUnit: false)
        tally.apply(event(a, delta: 25))
        #expect(tally.done == 10)
        tally.apply(event(a, delta: -30))
        #expect(tally.done == 0)
    }

    @Test func aHeadWithoutLengthMakesAUnit() {
        var tally = QueueProgressTally()
        tally.add(a, size: nil, isUnit: false)
        tally.presize(a, length: nil)
        #expect(tally.total == 1)
        tally.apply(event(a, delta: 999, size: 999))
        #expect(tally.total == 1 && tally.done == 0)
    }

    @Test func aFailedRequestKeepsWhatItMovedAndIsNotComplete() {
        var tally = QueueProgressTally()
        tally.add(a, size: 1_000, isUnit: false)
        tally.add(b, size: nil, isUnit: false)
        tally.apply(event(a, delta: 400))
        tally.apply(event(b, delta: 50))  // bytes of unknown total
        tally.abandon(a)
        #expect(tally.total == 1_000 && tally.done == 400)
        tally.abandon(b)  // never sized: one unit, not done
        #expect(tally.total == 1_001 && tally.done == 400 && tally.isIdle)
        #expect(tally.fraction == 400.0 / 1_001.0)
    }

    @Test func theNextBatchDropsOnlyWhatWasNeverMoved() {
        var tally = QueueProgressTally()
        tally.add(a, size: 1_000, isUnit: false)
        tally.add(b, size: 3_000, isUnit: false)
        tally.apply(event(a, delta: 1_000))
        tally.complete(a)
        tally.apply(event(b, delta: 1_000))
        tally.abandon(b)
        #expect(tally.total == 4_000 && tally.done == 2_000 && tally.abandoned == 2_000)
        tally.dropAbandoned()
        #expect(tally.total == 2_000 && tally.done == 2_000 && tally.abandoned == 0)
        tally.add(c, size: 3_000, isUnit: false)  // b sent again
        #expect(tally.fraction == 0.4, "the work already done still counts")
        tally.apply(event(c, delta: 3_000))
        tally.complete(c)
        #expect(tally.fraction == 1)
    }

    /// Units counted as a number (a simple-mode queue) add up exactly like unit items: same total, done part,
    /// abandoned part and idleness after every step.
    @Test func countedUnitsMatchUnitItems() {
        var items = QueueProgressTally()
        var counted = QueueProgressTally()
        func same() -> Bool {
            items.total == counted.total && items.done == counted.done && items.abandoned == counted.abandoned
                && items.isIdle == counted.isIdle && items.fraction == counted.fraction
        }
        for id in [a, b, c] {
            items.add(id, size: nil, isUnit: true)
            counted.addUnit()
        }
        #expect(same() && counted.pendingUnits == 3 && !counted.isIdle)
        items.complete(a)
        counted.completeUnit()
        #expect(same() && counted.fraction == 1.0 / 3.0)
        items.abandon(b)
        counted.abandonUnit()
        #expect(same() && counted.abandoned == 1)
        items.complete(c)
        counted.completeUnit()
        #expect(same() && counted.isIdle && counted.pendingUnits == 0)
        counted.completeUnit()  // an end without an add changes nothing
        counted.abandonUnit()
        items.dropAbandoned()
        counted.dropAbandoned()
        #expect(same() && counted.total == 2 && counted.fraction == 1)
    }
}
