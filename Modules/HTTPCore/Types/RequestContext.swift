public import Logging

/// What a transport and middleware get beside the request: who to tell about progress, when to give up,
/// and where to log.
public struct RequestContext: Sendable {
    /// The request this attempt belongs to.
    public var requestID: RequestID
    /// Receives byte counts as the body goes out and comes in.
    public var progress: any ProgressSink
    /// Limits the bandwidth, when the client has a limiter.
    public var bandwidth: (any BandwidthLimiter)?
    /// The logger, with the request ID in its metadata.
    public var logger: Logger

    /// Creates a context.
    /// - Parameters:
    ///   - requestID: The request this attempt belongs to.
    ///   - progress: Receives progress events.
    ///   - bandwidth: Limits the bandwidth, if any.
    ///   - logger: Where to log.
    public init(
        requestID: RequestID = .next(),
        progress: any ProgressSink,
        bandwidth: (any BandwidthLimiter)? = nil,
        logger: Logger
    ) {
        self.requestID = requestID
        self.progress = progress
        self.bandwidth = bandwidth
        self.logger = logger
    }
}
