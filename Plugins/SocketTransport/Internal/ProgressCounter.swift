import HTTPCore

/// Counts body bytes in one direction and reports the running total to the request's progress sink.
struct ProgressCounter {
    let context: RequestContext
    let direction: TransferDirection
    let expected: Int64?
    private(set) var completed: Int64

    init(context: RequestContext, direction: TransferDirection, expected: Int64?, completed: Int64 = 0) {
        self.context = context
        self.direction = direction
        self.expected = expected
        self.completed = completed
    }

    /// Adds `count` bytes and reports the new total.
    mutating func add(_ count: Int) {
        guard count > 0 else { return }
        completed += Int64(count)
        context.progress?.receive(ProgressEvent(requestID: context.requestID, direction: direction,
                                               completedBytes: completed, expectedBytes: expected))
    }
}
