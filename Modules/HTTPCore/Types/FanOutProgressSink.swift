/// A progress sink that passes each event to several sinks, in order (Alamofire's `CompositeEventMonitor`).
///
/// Give one to any progress slot (``RequestOptions/progress``, a client's, a queue's) to show a bar and log at
/// once. ``RequestOptions/addProgressSink(_:)`` builds it for you and keeps a single sink unwrapped, so a
/// request with no sink or one sink pays nothing for the fan-out.
///
/// ```swift
/// var request = Request(url: url)
/// request.options.addProgressSink(bar)
/// request.options.addProgressSink(ClosureProgressSink(.download) { event in log(event) })
/// ```
///
/// The sinks are called one after the other on the reporting thread, so each must return quickly
/// (``ProgressSink``'s requirements); a slow one delays the others.
public struct FanOutProgressSink: ProgressSink {
    /// The sinks, called in this order.
    public let sinks: [any ProgressSink]

    /// Creates a sink that passes each event to `sinks`, in order. A fan-out among them is flattened into its sinks.
    /// - Parameter sinks: The sinks.
    public init(_ sinks: [any ProgressSink]) {
        self.sinks = sinks.flatMap { ($0 as? FanOutProgressSink)?.sinks ?? [$0] }
    }

    /// Creates a sink that passes each event to `sinks`, in order.
    /// - Parameter sinks: The sinks.
    public init(_ sinks: any ProgressSink...) {
        self.init(sinks)
    }

    /// Passes the event to every sink, in order.
    /// - Parameter event: The report.
    public func receive(_ event: ProgressEvent) {
        for sink in sinks { sink.receive(event) }
    }

    /// A progress slot's value once `sink` is added to it: `sink` itself when the slot is empty, otherwise a
    /// fan-out of what the slot held followed by `sink`.
    /// - Parameters:
    ///   - sink: The sink to add.
    ///   - existing: What the slot holds now.
    /// - Returns: The value to store in the slot.
    public static func adding(_ sink: any ProgressSink, to existing: (any ProgressSink)?) -> any ProgressSink {
        guard let existing else { return sink }
        return FanOutProgressSink([existing, sink])
    }
}

extension ProgressSink where Self == FanOutProgressSink {
    /// A sink that passes each event to `sinks`, in order.
    /// - Parameter sinks: The sinks.
    /// - Returns: The sink.
    public static func fanOut(_ sinks: any ProgressSink...) -> FanOutProgressSink {
        FanOutProgressSink(sinks)
    }
}
