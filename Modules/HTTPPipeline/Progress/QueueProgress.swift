import HTTPCore
import Synchronization

/// A queue's progress: two tallies behind a lock, and the queue's sink, which gets every request's events and
/// the queue's total after each change.
final class QueueProgress: Sendable {
    private struct Tallies {
        var upload = QueueProgressTally()
        var download = QueueProgressTally()
    }

    let queueID: RequestID
    let isAccurate: Bool
    private let sink: (any ProgressSink)?
    private let tallies = Mutex(Tallies())

    init(queueID: RequestID, isAccurate: Bool, sink: (any ProgressSink)?) {
        self.queueID = queueID
        self.isAccurate = isAccurate
        self.sink = sink
    }

    /// Whether the requests' own events matter: the queue counts bytes, or its sink wants them.
    var wantsRequestEvents: Bool { isAccurate || sink != nil }

    /// The total's fraction in one direction.
    func fraction(_ direction: TransferDirection) -> Double {
        tallies.withLock { direction == .upload ? $0.upload.fraction : $0.download.fraction }
    }

    /// Counts a request that was just added. When every earlier request is over, what failed or cancelled requests
    /// never moved first leaves the totals, so the new batch can reach 1 while the work already done still counts.
    func add(_ request: Request, id: RequestID) {
        change(reporting: nil) { tallies in
            if tallies.upload.isIdle, tallies.download.isIdle {
                tallies.upload.dropAbandoned()
                tallies.download.dropAbandoned()
            }
            if isAccurate {
                let length = request.body?.length ?? 0
                tallies.upload.add(id, size: length, isUnit: length == 0)
                tallies.download.add(id, size: nil, isUnit: false)
            } else {
                // Simple mode: every request is one unit whatever it reports, so it needs no item.
                tallies.upload.addUnit()
                tallies.download.addUnit()
            }
        }
    }

    /// Sizes a request's download from its HEAD pre-flight.
    func presize(_ id: RequestID, length: Int64?) {
        change(reporting: nil) { $0.download.presize(id, length: length) }
    }

    /// Takes one of a request's own events.
    func receive(_ event: ProgressEvent) {
        change(reporting: event) { tallies in
            guard isAccurate else { return }
            switch event.direction {
            case .upload: tallies.upload.apply(event)
            case .download: tallies.download.apply(event)
            }
        }
    }

    /// The request is over: complete when it `finished`, otherwise (failed or cancelled) left at what it moved.
    func end(_ id: RequestID, finished: Bool) {
        change(reporting: nil) { tallies in
            switch (isAccurate, finished) {
            case (true, true):
                tallies.upload.complete(id)
                tallies.download.complete(id)
            case (true, false):
                tallies.upload.abandon(id)
                tallies.download.abandon(id)
            case (false, true):
                tallies.upload.completeUnit()
                tallies.download.completeUnit()
            case (false, false):
                tallies.upload.abandonUnit()
                tallies.download.abandonUnit()
            }
        }
    }

    /// Applies a change and tells the sink, under the lock so that the sink sees the totals in order.
    private func change(reporting event: ProgressEvent?, _ body: (inout Tallies) -> Void) {
        guard let sink else {
            tallies.withLock { body(&$0) }
            return
        }
        tallies.withLock { tallies in
            let before = [(tallies.upload.total, tallies.upload.done), (tallies.download.total, tallies.download.done)]
            body(&tallies)
            if let event { sink.receive(event) }
            let after = [(tallies.upload.total, tallies.upload.done), (tallies.download.total, tallies.download.done)]
            for (index, direction) in [TransferDirection.upload, .download].enumerated()
            where before[index] != after[index] {
                let (total, done) = after[index]
                sink.receive(
                    ProgressEvent(
                        requestID: queueID, direction: direction, completedBytes: done,
                        expectedBytes: total, byteDelta: done - before[index].1,
                        sizeIncrement: total - before[index].0, isAggregate: true))
            }
        }
    }
}

/// The sink a queue puts in each request's options: the request's own sink first, then the queue.
struct QueueMemberSink: ProgressSink {
    let own: (any ProgressSink)?
    let progress: QueueProgress

    func receive(_ event: ProgressEvent) {
        own?.receive(event)
        progress.receive(event)
    }
}
