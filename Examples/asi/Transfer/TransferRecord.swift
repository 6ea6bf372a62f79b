import FoundationEssentials
import HTTPCore
import HTTPPipeline
import Synchronization
import TerminalProgress

/// What one transfer did, filled in as it runs: the byte counts from its progress events and the final
/// response's status and URL. Read by `-w` and the exit code.
final class TransferRecord: ProgressSink {
    /// A copy of the record's fields.
    struct Snapshot: Sendable {
        var url: URL
        var effectiveURL: URL
        var statusCode = 0
        var version: HTTPVersion?
        var contentType: String?
        var redirects = 0
        var downloaded: Int64 = 0
        var uploaded: Int64 = 0
        var elapsed: Duration = .zero
        var failure: TransferFailure?
    }

    private let state: Mutex<Snapshot>
    private let labelled = Mutex<Set<RequestID>>([])
    private let label: String
    private let bar: TerminalProgressBar<ContinuousClock>?
    private let meter: ProgressMeter<ContinuousClock>?
    private let forwards: Bool
    private let start = ContinuousClock.now

    /// Creates a record.
    /// - Parameters:
    ///   - url: The URL asked for.
    ///   - bar: The progress bar to name the request's lines on.
    ///   - meter: curl's progress meter for this transfer, which gets every event and is ended by ``finish(_:)``.
    ///   - forwards: Whether events go on to the bar (serial mode; a queue feeds its bar itself).
    init(
        url: URL, bar: TerminalProgressBar<ContinuousClock>?, meter: ProgressMeter<ContinuousClock>? = nil,
        forwards: Bool
    ) {
        state = Mutex(Snapshot(url: url, effectiveURL: url))
        label =
            url.lastPathComponent.isEmpty || url.lastPathComponent == "/" ? (url.host() ?? "") : url.lastPathComponent
        self.bar = bar
        self.meter = meter
        self.forwards = forwards
    }

    /// Counts the bytes of the current attempt; labels and forwards to the bar, and hands to the meter.
    func receive(_ event: ProgressEvent) {
        state.withLock { state in
            switch event.direction {
            case .download: state.downloaded = event.completedBytes
            case .upload: state.uploaded = event.completedBytes
            }
        }
        meter?.receive(event)
        guard let bar else { return }
        if labelled.withLock({ $0.insert(event.requestID).inserted }) { bar.setLabel(label, for: event.requestID) }
        if forwards { bar.receive(event) }
    }

    /// Notes the final response's head.
    func note(_ head: ResponseHead, info: ExchangeInfo) {
        state.withLock { state in
            state.statusCode = head.status.code
            state.version = head.version
            state.contentType = head.headerFields[.contentType]
            state.effectiveURL = info.url
            state.redirects = info.redirectCount
        }
    }

    /// Notes how the transfer ended, stops the clock and ends the meter's line (before any error message).
    func finish(_ failure: TransferFailure?) {
        meter?.finish()
        let elapsed = start.duration(to: .now)
        state.withLock { state in
            state.failure = failure
            state.elapsed = elapsed
        }
    }

    /// The fields as they are now.
    var snapshot: Snapshot { state.withLock { $0 } }
}
