/// What a ``BandwidthLimiter`` call is about: which request's bytes, which way, and the request's own limit.
///
/// A transport builds one per direction of a request with ``RequestContext/bandwidthTransfer(_:)`` and passes it to
/// every ask and settle, so a limiter can keep per-request budgets beside the shared one.
public struct BandwidthTransfer: Sendable, Hashable {
    /// The request the bytes belong to; its hops (redirects, challenges) share it.
    public var requestID: RequestID
    /// Upload (request body) or download (response body).
    public var direction: TransferDirection
    /// The request's own limit in bytes per second (``RequestOptions/maxBandwidthPerSecond``), applied together
    /// with the limiter's shared budget; `nil` for none.
    public var limit: Int?

    /// Creates a transfer description.
    /// - Parameters:
    ///   - requestID: The request the bytes belong to.
    ///   - direction: Upload or download.
    ///   - limit: The request's own limit in bytes per second, if any.
    public init(requestID: RequestID, direction: TransferDirection, limit: Int? = nil) {
        self.requestID = requestID
        self.direction = direction
        self.limit = limit
    }
}

extension RequestContext {
    /// The transfer description for this request's bytes in one direction, with its own limit.
    /// - Parameter direction: Upload or download.
    /// - Returns: The transfer to pass to ``BandwidthLimiter`` calls.
    public func bandwidthTransfer(_ direction: TransferDirection) -> BandwidthTransfer {
        BandwidthTransfer(requestID: requestID, direction: direction, limit: bandwidthLimit)
    }
}
