/// Thrown by a ``ProtocolSession`` when the server said it did not process a request: HTTP/2's `GOAWAY` with a
/// last stream id below the request's stream, or `RST_STREAM` with `REFUSED_STREAM` (RFC 9113 §8.7).
///
/// Nothing of the request took effect, so the transport sends it again on another connection when its body can
/// be sent again (a replayable body or none), up to a few times; otherwise it throws ``error``.
public struct RequestNotProcessed: Error, Sendable {
    /// What to throw when the request cannot be sent again (code ``ClientError/Code/streamReset``).
    public var error: ClientError

    /// Creates the error.
    /// - Parameter error: What the request fails with when it is not sent again.
    public init(error: ClientError) {
        self.error = error
    }
}
