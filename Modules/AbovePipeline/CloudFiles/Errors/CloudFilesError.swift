/// An error from Swift or from this module: the server's status and message for a refused request, or a local check
/// that failed before anything was sent (a name or metadata over the limits `GET /info` advertises).
///
/// ```swift
/// do { _ = try await files.objectInfo(container: "photos", name: "missing.jpg") }
/// catch let error as CloudFilesError where error.code == .notFound { … }
/// ```
public struct CloudFilesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong (an open set).
    public var code: Code
    /// The HTTP status of the response; 0 when nothing was answered (a local check).
    public var status: Int
    /// The server's message (its body, trimmed, at most 512 bytes), or the local check's. Never holds a token or key.
    public var message: String
    /// `X-Trans-Id` (or `X-Openstack-Request-Id`): what an operator needs to find the request in Swift's logs.
    public var transactionID: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The code.
    ///   - status: The HTTP status, 0 for a local error.
    ///   - message: The message.
    ///   - transactionID: The transaction ID.
    public init(code: Code, status: Int = 0, message: String = "", transactionID: String? = nil) {
        self.code = code
        self.status = status
        self.message = message
        self.transactionID = transactionID
    }

    /// `CloudFiles <code> (HTTP <status>): <message>`, as one line.
    public var description: String {
        "CloudFiles \(code)" + (status == 0 ? "" : " (HTTP \(status))") + (message.isEmpty ? "" : ": \(message)")
    }

    /// Maps a failing status to its code.
    static func code(forStatus status: Int) -> Code {
        switch status {
        case 401: .unauthorized
        case 403: .forbidden
        case 404: .notFound
        case 409: .conflict
        case 411, 400, 413, 422: .badRequest
        case 412: .preconditionFailed
        case 416: .rangeNotSatisfiable
        case 429, 498: .rateLimited
        case 500...: .serverError
        default: .unexpectedStatus
        }
    }
}
