/// A progress sink that hands each event to a closure (Alamofire's `downloadProgress { }` and `uploadProgress { }`).
///
/// Use it where a whole class with a lock would be too much: printing a percentage, updating a value the closure
/// already guards. The closure is `@Sendable` and runs inline on the transport's threads, possibly once per chunk
/// and from several threads at once (``ProgressSink``'s requirements): return quickly, never block, and keep
/// any state it changes behind a lock (a `Mutex`) or send it on (an `AsyncStream` continuation).
///
/// ```swift
/// var request = Request(url: URL(string: "http://127.0.0.1:8080/big.iso")!)
/// request.options.progress = ClosureProgressSink(.download) { event in
///     if let fraction = event.fractionCompleted { print("\(Int(fraction * 100)) %") }
/// }
/// ```
public struct ClosureProgressSink: ProgressSink {
    /// The direction whose events reach the closure, or `nil` for both.
    public let direction: TransferDirection?
    private let handler: @Sendable (ProgressEvent) -> Void

    /// Creates a sink that calls `handler` with every event, or only with those of one direction.
    /// - Parameters:
    ///   - direction: `.upload` or `.download` to hear only that direction; `nil` (the default) for both.
    ///   - handler: Called with each event, inline on the reporting thread.
    public init(_ direction: TransferDirection? = nil, _ handler: @escaping @Sendable (ProgressEvent) -> Void) {
        self.direction = direction
        self.handler = handler
    }

    /// Passes the event to the closure when its direction matches.
    /// - Parameter event: The report.
    public func receive(_ event: ProgressEvent) {
        if let direction, event.direction != direction { return }
        handler(event)
    }
}

extension ProgressSink where Self == ClosureProgressSink {
    /// A sink that calls `handler` with every event, or only with those of one direction.
    ///
    /// With Swift 6.3, a trailing closure passed to a leading-dot factory can lose its `@Sendable` inference; when
    /// the compiler complains, write ``ClosureProgressSink/init(_:_:)`` instead.
    /// - Parameters:
    ///   - direction: `.upload` or `.download` to hear only that direction; `nil` (the default) for both.
    ///   - handler: Called with each event, inline on the reporting thread.
    /// - Returns: The sink.
    public static func closure(
        _ direction: TransferDirection? = nil, _ handler: @escaping @Sendable (ProgressEvent) -> Void
    ) -> ClosureProgressSink {
        ClosureProgressSink(direction, handler)
    }
}
