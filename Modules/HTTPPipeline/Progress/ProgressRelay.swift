import HTTPCore
import Synchronization

/// The progress sink the pipeline hands to the middleware and the transport: it turns their cumulative
/// per-attempt counts into ASIHTTPRequest's view (bytes since the last event, size increments, progress taken
/// back when an attempt is replaced) and fans each event out to the client's and the request's sinks.
final class ProgressRelay: ProgressSink, BodyEndObserver {
    /// What the sinks were told so far for one direction.
    struct Tally: Equatable {
        /// Bytes reported in the current attempt.
        var completed: Int64 = 0
        /// The size reported so far (the sum of the size increments).
        var size: Int64 = 0

        /// Applies a transport's cumulative count and returns the event to pass on, if anything moved.
        mutating func report(_ event: ProgressEvent) -> ProgressEvent? {
            var out = event
            out.byteDelta = event.completedBytes - completed
            completed = event.completedBytes
            if let expected = event.expectedBytes, expected != size {
                out.sizeIncrement = expected - size
                size = expected
            } else {
                out.sizeIncrement = 0
            }
            out.isAggregate = false
            return out.byteDelta == 0 && out.sizeIncrement == 0 ? nil : out
        }

        /// Starts a new attempt: takes back the bytes reported so far and sets the size to `size`, when known.
        mutating func restart(size newSize: Int64?) -> (byteDelta: Int64, sizeIncrement: Int64) {
            let delta = -completed
            completed = 0
            let target = newSize ?? 0
            let increment = target - size
            size = target
            return (delta, increment)
        }
    }

    private struct State {
        var upload = Tally()
        var download = Tally()
    }

    let requestID: RequestID
    private let sinks: [any ProgressSink]
    private let state = Mutex(State())

    /// Makes a relay, or returns `nil` when no sink would see anything.
    static func make(requestID: RequestID, sinks: [(any ProgressSink)?]) -> ProgressRelay? {
        let live = sinks.compactMap { $0 }
        return live.isEmpty ? nil : ProgressRelay(requestID: requestID, sinks: live)
    }

    private init(requestID: RequestID, sinks: [any ProgressSink]) {
        self.requestID = requestID
        self.sinks = sinks
    }

    func receive(_ event: ProgressEvent) {
        let out = state.withLock { state -> ProgressEvent? in
            switch event.direction {
            case .upload: state.upload.report(event)
            case .download: state.download.report(event)
            }
        }
        if let out { deliver(out) }
    }

    /// A new attempt (the first hop, a redirect, a challenge answer, a retry) is about to be sent: takes back
    /// what the previous attempt reported, announces the upload's size and forgets the previous response's.
    func beginAttempt(uploadLength: Int64?) {
        let (upload, download) = state.withLock { state in
            (state.upload.restart(size: uploadLength), state.download.restart(size: nil))
        }
        if upload.byteDelta != 0 || upload.sizeIncrement != 0 {
            deliver(
                ProgressEvent(
                    requestID: requestID, direction: .upload, completedBytes: 0,
                    expectedBytes: uploadLength, byteDelta: upload.byteDelta,
                    sizeIncrement: upload.sizeIncrement))
        }
        if download.byteDelta != 0 || download.sizeIncrement != 0 {
            deliver(
                ProgressEvent(
                    requestID: requestID, direction: .download, completedBytes: 0, expectedBytes: nil,
                    byteDelta: download.byteDelta, sizeIncrement: download.sizeIncrement))
        }
    }

    /// A response head arrived: announces the body's size as soon as it is known.
    func responseArrived(expectedLength: Int64?) {
        guard let expectedLength else { return }
        let update = state.withLock { state -> (completed: Int64, increment: Int64) in
            let increment = expectedLength - state.download.size
            state.download.size = expectedLength
            return (state.download.completed, increment)
        }
        guard update.increment != 0 else { return }
        deliver(
            ProgressEvent(
                requestID: requestID, direction: .download, completedBytes: update.completed,
                expectedBytes: expectedLength, sizeIncrement: update.increment))
    }

    /// Wraps the final response's body so that its end announces a download size that was unknown until then
    /// (no `Content-Length`): a finished request's sinks then always end at a fraction of exactly 1.
    func trackingEnd(of body: ResponseBody) -> ResponseBody {
        ResponseBody(
            expectedLength: body.expectedLength, source: EndObservingBodySource(base: body.source, observer: self))
    }

    /// The final body ended: if it was read to the end and its size was never announced, announce what arrived.
    /// - Parameter end: How it ended; a failed or discarded body announces nothing.
    func bodyEnded(_ end: BodyEnd) {
        guard case .finished = end else { return }
        let update = state.withLock { state -> (completed: Int64, increment: Int64)? in
            guard state.download.size == 0, state.download.completed > 0 else { return nil }
            state.download.size = state.download.completed
            return (state.download.completed, state.download.completed)
        }
        guard let update else { return }
        deliver(
            ProgressEvent(
                requestID: requestID, direction: .download, completedBytes: update.completed,
                expectedBytes: update.completed, sizeIncrement: update.increment))
    }

    private func deliver(_ event: ProgressEvent) {
        for sink in sinks { sink.receive(event) }
    }
}
