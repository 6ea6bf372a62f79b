import Synchronization

/// A process-unique number that names one request (ASIHTTPRequest's `requestID`).
///
/// Every attempt of a request (redirect hops, authentication retries, timeout retries) shares the ID, so
/// progress events and log lines can be tied back to the request that the caller started.
public struct RequestID: Sendable, Hashable, CustomStringConvertible {
    /// The raw number.
    public let rawValue: UInt64

    private static let counter = Atomic<UInt64>(0)

    /// Creates an ID from a raw number. Use ``next()`` for a fresh, unique one.
    /// - Parameter rawValue: The number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Returns a new ID, different from every other returned in this process.
    /// - Returns: A fresh request ID.
    public static func next() -> RequestID {
        RequestID(rawValue: counter.add(1, ordering: .relaxed).newValue)
    }

    /// The number in decimal.
    public var description: String { String(rawValue) }
}
