public import HTTPCore

/// How one request of a ``RequestQueue`` ended, as ``RequestQueue/results`` delivers it.
public struct QueueResult: Sendable {
    /// The request's ID (its ``RequestHandle/requestID``).
    public let requestID: RequestID
    /// The request as it was added, with its `userInfo` and `tag`.
    public let request: Request
    /// The response, or why there is none (``ClientError/Code/cancelled`` for a cancel).
    public let result: Result<ClientResponse, ClientError>

    /// Creates a result.
    /// - Parameters:
    ///   - requestID: The request's ID.
    ///   - request: The request as added.
    ///   - result: The response or the error.
    public init(requestID: RequestID, request: Request, result: Result<ClientResponse, ClientError>) {
        self.requestID = requestID
        self.request = request
        self.result = result
    }

    /// The response.
    /// - Returns: The response.
    /// - Throws: The request's ``ClientError``.
    public func response() throws(ClientError) -> ClientResponse {
        try result.get()
    }
}
