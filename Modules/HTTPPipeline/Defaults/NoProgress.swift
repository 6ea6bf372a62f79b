public import HTTPCore

/// The default progress sink: ignores every event.
public struct NoProgress: ProgressSink {
    /// Creates the sink.
    public init() {}

    /// Ignores the event.
    /// - Parameter event: Ignored.
    public func receive(_ event: ProgressEvent) {}
}
