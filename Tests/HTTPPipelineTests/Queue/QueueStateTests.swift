import HTTPCore
import Testing

@testable import HTTPPipeline

@Suite struct QueueStateTests {
    let ids = (1...6).map { RequestID(rawValue: UInt64($0)) }

    @Test func nothingStartsBeforeGo() {
        var state = QueueState<RequestID>(width: 2, cancelsAllOnFailure: true)
        #expect(state.add(ids[0], preflight: false) == QueueState<RequestID>.Actions())
        #expect(state.add(ids[1], preflight: false) == QueueState<RequestID>.Actions())
        #expect(state.isSuspended)
        #expect(state.go().starts == [ids[0], ids[1]])
    }

    @Test func widthIsRespectedAndFreedSlotsAreRefilledInOrder() {
        var state = QueueState<RequestID>(width: 2, cancelsAllOnFailure: false)
        for id in ids.prefix(4) { _ = state.add(id, preflight: false) }
        #expect(state.go().starts == [ids[0], ids[1]])
        #expect(state.running == 2)
        #expect(state.ended(ids[1], failed: false).starts == [ids[2]])
        #expect(state.ended(ids[0], failed: true).starts == [ids[3]])
        #expect(state.ended(ids[2], failed: false).drained == false)
        let last = state.ended(ids[3], failed: false)
        #expect(last.drained && state.outstanding == 0 && state.running == 0)
    }

    @Test func addingToARunningQueueStartsWhenThereIsRoom() {
        var state = QueueState<RequestID>(width: 1, cancelsAllOnFailure: true)
        _ = state.go()
        #expect(state.add(ids[0], preflight: false).starts == [ids[0]])
        #expect(state.add(ids[1], preflight: false).starts.isEmpty)
        #expect(state.ended(ids[0], failed: false).starts == [ids[1]])
    }

    @Test func aFailureCancelsEverythingElseWhenAsked() {
        var state = QueueState<RequestID>(width: 2, cancelsAllOnFailure: true)
        for id in ids.prefix(4) { _ = state.add(id, preflight: false) }
        _ = state.go()
        let actions = state.ended(ids[0], failed: true)
        #expect(actions.cancelRunning == [ids[1]])
        #expect(actions.failedWhilePending == [ids[2], ids[3]])
        #expect(actions.starts.isEmpty && !actions.drained)
        let cancelled = state.ended(ids[1], failed: true)  // the cancelled one reports
        #expect(cancelled.cancelRunning.isEmpty && !cancelled.drained)  // asked once is enough
        #expect(!state.pendingFailureReported(ids[2]).drained)
        #expect(state.pendingFailureReported(ids[3]).drained)  // only once every failure is reported
    }

    @Test func aFailureLeavesTheOthersAloneWhenNotAsked() {
        var state = QueueState<RequestID>(width: 1, cancelsAllOnFailure: false)
        for id in ids.prefix(2) { _ = state.add(id, preflight: false) }
        _ = state.go()
        let actions = state.ended(ids[0], failed: true)
        #expect(actions.starts == [ids[1]] && actions.cancelRunning.isEmpty && actions.failedWhilePending.isEmpty)
    }

    @Test func preflightsRunFirstAndRequestsWaitForAllOfThem() {
        var state = QueueState<RequestID>(width: 2, cancelsAllOnFailure: true)
        _ = state.add(ids[0], preflight: true)
        _ = state.add(ids[1], preflight: false)
        _ = state.add(ids[2], preflight: true)
        let first = state.go()
        #expect(first.preflights == [ids[0], ids[2]] && first.starts.isEmpty)
        #expect(state.preflightEnded(ids[0]).starts.isEmpty)  // one pre-flight still out
        #expect(state.preflightEnded(ids[2]).starts == [ids[0], ids[1]])
    }

    @Test func cancellingAWaitingRequestFailsItAtOnce() {
        var state = QueueState<RequestID>(width: 1, cancelsAllOnFailure: false)
        for id in ids.prefix(3) { _ = state.add(id, preflight: false) }
        _ = state.go()
        #expect(state.failPending(ids[0]) == nil)  // running: its task reports
        let actions = state.failPending(ids[2])
        #expect(actions?.failedWhilePending == [ids[2]])
        #expect(state.outstanding == 3)  // until the failure is reported
        #expect(state.pendingFailureReported(ids[2]).starts.isEmpty)
        #expect(state.outstanding == 2)
    }

    @Test func cancellingARequestWhosePreflightRunsCancelsThePreflightToo() {
        var state = QueueState<RequestID>(width: 2, cancelsAllOnFailure: false)
        _ = state.add(ids[0], preflight: true)
        _ = state.add(ids[1], preflight: true)
        #expect(state.go().preflights == [ids[0], ids[1]])
        let actions = state.failPending(ids[0])
        #expect(actions?.failedWhilePending == [ids[0]] && actions?.cancelRunning == [ids[0]])
        #expect(state.preflightEnded(ids[0]).starts.isEmpty)  // the other pre-flight is still out
        #expect(state.preflightEnded(ids[1]).starts == [ids[1]])
    }

    @Test func drainsOncePerBatch() {
        var state = QueueState<RequestID>(width: 4, cancelsAllOnFailure: true)
        _ = state.go()
        _ = state.add(ids[0], preflight: false)
        #expect(state.ended(ids[0], failed: false).drained)
        #expect(state.ended(ids[0], failed: false) == QueueState<RequestID>.Actions())  // a second report is ignored
        _ = state.add(ids[1], preflight: false)
        #expect(state.ended(ids[1], failed: false).drained)
    }

    @Test func cancelAllFailsWaitingRequestsAndDrains() {
        var state = QueueState<RequestID>(width: 1, cancelsAllOnFailure: false)
        for id in ids.prefix(3) { _ = state.add(id, preflight: false) }
        let actions = state.cancelAll()
        #expect(actions.failedWhilePending == [ids[0], ids[1], ids[2]])
        #expect(!actions.drained)
        #expect(!state.pendingFailureReported(ids[0]).drained)
        #expect(!state.pendingFailureReported(ids[1]).drained)
        #expect(state.pendingFailureReported(ids[2]).drained && state.outstanding == 0)
    }
}
