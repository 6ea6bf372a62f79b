public import Logging

/// What a transport and middleware get beside the request: who to tell about progress, when to give up,
/// and where to log.
public struct RequestContext: Sendable {
    /// The request this attempt belongs to.
    public var requestID: RequestID
    /// Receives byte counts as the body goes out and comes in; `nil` when nobody listens, and then the transport
    /// skips building events.
    public var progress: (any ProgressSink)?
    /// Limits the bandwidth, when the client has a limiter.
    public var bandwidth: (any BandwidthLimiter)?
    /// This request's own bandwidth limit in bytes per second (``RequestOptions/maxBandwidthPerSecond``), passed
    /// to the limiter with every call; it has an effect only when ``bandwidth`` is set.
    public var bandwidthLimit: Int?
    /// The `Proxy-Authorization` the pipeline answered a 407 challenge with, for the proxy that asked. The
    /// transport sends it only to that proxy (see ``ProxyAuthorization/applies(to:)``).
    public var proxyAuthorization: ProxyAuthorization?
    /// The logger, with the request ID in its metadata.
    public var logger: Logger
    /// The pooled connection this attempt should reuse when it is still idle and usable: the one that carried a
    /// challenge of a connection-bound scheme (NTLM's handshake must stay on one connection). `nil` (any
    /// connection) otherwise; a transport without a pool ignores it.
    public var preferredConnectionID: UInt64?
    /// How many times this request was sent before this attempt: 0 for the first, then one more for every
    /// redirect hop, challenge answer and retry (OpenTelemetry's `http.request.resend_count`). The pipeline sets
    /// it; middleware reads it to tell attempts apart.
    public var resendCount: Int = 0

    /// Creates a context.
    /// - Parameters:
    ///   - requestID: The request this attempt belongs to.
    ///   - progress: Receives progress events.
    ///   - bandwidth: Limits the bandwidth, if any.
    ///   - bandwidthLimit: This request's own limit in bytes per second, if any.
    ///   - proxyAuthorization: The answer to a proxy's 407 challenge, if any.
    ///   - logger: Where to log.
    public init(
        requestID: RequestID = .next(),
        progress: (any ProgressSink)? = nil,
        bandwidth: (any BandwidthLimiter)? = nil,
        bandwidthLimit: Int? = nil,
        proxyAuthorization: ProxyAuthorization? = nil,
        logger: Logger
    ) {
        self.requestID = requestID
        self.progress = progress
        self.bandwidth = bandwidth
        self.bandwidthLimit = bandwidthLimit
        self.proxyAuthorization = proxyAuthorization
        self.logger = logger
    }
}
