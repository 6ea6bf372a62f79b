public import HTTPCore

extension RequestQueue {
    /// A queue's settings. Every default is ASINetworkQueue's.
    public struct Configuration: Sendable {
        /// The most requests running at once (`maxConcurrentOperationCount`). Default 4; at least 1.
        public var maxConcurrentRequests: Int
        /// Whether a failed request, a cancelled one included, cancels every other request
        /// (`shouldCancelAllRequestsOnFailure`). Default `true`.
        public var cancelsAllOnFailure: Bool
        /// Whether the queue's total moves with the bytes (`showAccurateProgress`). Default `false`: the total
        /// moves by one unit as each request ends. In accurate mode every `GET` added before ``RequestQueue/go()``
        /// is preceded by a `HEAD` request that learns its size, and no request starts until every `HEAD` has
        /// answered. It changes only the queue's total, never what a request's own sink sees
        /// (Docs/Decisions/0004-queue-progress-mode.md).
        public var showsAccurateProgress: Bool
        /// Receives every request's progress events and, after each change, the queue's total (events with
        /// ``ProgressEvent/isAggregate`` set and the queue's ``RequestQueue/id``). Called serially, under the
        /// queue's progress lock: return quickly and do not call back into the queue. `nil` by default. For
        /// several sinks, use ``addProgressSink(_:)`` or a `FanOutProgressSink`.
        public var progress: (any ProgressSink)?

        /// Creates settings.
        /// - Parameters:
        ///   - maxConcurrentRequests: The most requests running at once; at least 1.
        ///   - cancelsAllOnFailure: Whether a failure cancels the other requests.
        ///   - showsAccurateProgress: Whether the total moves with the bytes.
        ///   - progress: Receives the requests' events and the queue's total.
        public init(
            maxConcurrentRequests: Int = 4,
            cancelsAllOnFailure: Bool = true,
            showsAccurateProgress: Bool = false,
            progress: (any ProgressSink)? = nil
        ) {
            self.maxConcurrentRequests = maxConcurrentRequests
            self.cancelsAllOnFailure = cancelsAllOnFailure
            self.showsAccurateProgress = showsAccurateProgress
            self.progress = progress
        }

        /// Adds a sink to ``progress``, beside any sink already there: the first is stored as it is, a second
        /// turns the slot into a `FanOutProgressSink` that calls them in the order they were added.
        /// - Parameter sink: Receives the requests' events and the queue's total.
        public mutating func addProgressSink(_ sink: any ProgressSink) {
            progress = FanOutProgressSink.adding(sink, to: progress)
        }
    }
}
