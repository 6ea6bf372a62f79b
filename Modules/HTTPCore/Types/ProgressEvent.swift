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
    /// How far ``completedBytes`` moved since the previous event for this request and direction
    /// (ASIHTTPRequest's `didReceiveBytes:` and `didSendBytes:`). Negative when progress is taken back, for example
    /// when an upload is sent again after an authentication challenge. Transports leave it 0; the pipeline fills it.
    public var byteDelta: Int64
    /// How much the expected size grew since the previous event for this request and direction
    /// (`incrementDownloadSizeBy:` and `incrementUploadSizeBy:`); may be negative. Transports leave it 0; the
    /// pipeline fills it as soon as a size is known (the body's length before the upload, the response's
    /// `Content-Length` when its head arrives, or, without one, the bytes received when the body ends).
    public var sizeIncrement: Int64
    /// Whether the event is a request queue's total rather than one request's. Its ``requestID`` is then the
    /// queue's ID and its counts are units: bytes, plus one unit for each request of unknown size, or one unit
    /// per request when the queue shows simple progress.
    public var isAggregate: Bool

    /// Creates an event.
    /// - Parameters:
    ///   - requestID: The request.
    ///   - direction: Upload or download.
    ///   - completedBytes: Bytes so far.
    ///   - expectedBytes: The expected total, if known.
    ///   - byteDelta: The change in `completedBytes` since the previous event; 0 from a transport.
    ///   - sizeIncrement: The change in the expected size since the previous event; 0 from a transport.
    ///   - isAggregate: Whether the event is a queue's total.
    public init(
        requestID: RequestID,
        direction: TransferDirection,
        completedBytes: Int64,
        expectedBytes: Int64?,
        byteDelta: Int64 = 0,
        sizeIncrement: Int64 = 0,
        isAggregate: Bool = false
    ) {
        self.requestID = requestID
        self.direction = direction
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
        self.byteDelta = byteDelta
        self.sizeIncrement = sizeIncrement
        self.isAggregate = isAggregate
    }

    /// ``completedBytes`` as a fraction of ``expectedBytes`` between 0 and 1, or `nil` when the size is unknown.
    /// An expected size of 0 counts as complete.
    public var fractionCompleted: Double? {
        guard let expectedBytes else { return nil }
        guard expectedBytes > 0 else { return 1 }
        return min(1, max(0, Double(completedBytes) / Double(expectedBytes)))
    }
}

/// Which way bytes move.
public enum TransferDirection: Sendable, Hashable {
    /// Request body bytes going to the server.
    case upload
    /// Response body bytes coming from the server.
    case download
}
