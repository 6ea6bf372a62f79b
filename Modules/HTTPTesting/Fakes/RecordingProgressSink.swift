public import HTTPCore
import Synchronization

/// A progress sink that keeps every event, for assertions.
public final class RecordingProgressSink: ProgressSink {
    private let recorded = Mutex<[ProgressEvent]>([])

    /// Creates an empty sink.
    public init() {}

    /// Keeps the event.
    /// - Parameter event: The event.
    public func receive(_ event: ProgressEvent) {
        recorded.withLock { $0.append(event) }
    }

    /// Every event so far, in order.
    public var events: [ProgressEvent] { recorded.withLock { $0 } }

    /// The events in one direction.
    /// - Parameter direction: Upload or download.
    /// - Returns: The events, in order.
    public func events(_ direction: TransferDirection) -> [ProgressEvent] {
        events.filter { $0.direction == direction }
    }
}
