/// One progress report: how many bytes of a request's body have gone out or come in.
public struct ProgressEvent: Sendable, Hashable {
    /// The request the bytes belong to.
    public var requestID: RequestID
    /// Upload or download.
    public var direction: TransferDirection
    /// Bytes transferred so far in this attempt. Goes back to 0 when an attempt is replaced (a retry or a
    /// redirect), so a sink sees progress taken back.
    public var completedBytes: Int64
    /// The total expected in this attempt, when known.
    public var expectedBytes: Int64?

    /// Creates an event.
    /// - Parameters:
    ///   - requestID: The request.
    ///   - direction: Upload or download.
    ///   - completedBytes: Bytes so far.
    ///   - expectedBytes: The expected total, if known.
    public init(requestID: RequestID, direction: TransferDirection, completedBytes: Int64, expectedBytes: Int64?) {
        self.requestID = requestID
        self.direction = direction
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
    }
}

/// Which way bytes move.
public enum TransferDirection: Sendable, Hashable {
    /// Request body bytes going to the server.
    case upload
    /// Response body bytes coming from the server.
    case download
}
