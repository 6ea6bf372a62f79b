/// An error S3 answered: the `<Error>` document's code, message and request ID, with the HTTP status.
///
/// Match on ``code`` (an open set: S3 adds codes, and S3-compatible servers have their own):
///
/// ```swift
/// do { _ = try await s3.getObject(bucket: "photos", key: "missing.jpg") }
/// catch let error as S3Error where error.code == .noSuchKey { … }
/// ```
public struct S3Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// The S3 error code (`<Code>`), for example ``Code/noSuchKey``.
    public var code: Code
    /// The HTTP status of the response.
    public var status: Int
    /// The human text of `<Message>`; it never holds a secret (S3 does not echo the key's secret).
    public var message: String
    /// `<RequestId>` (or `x-amz-request-id`), for AWS support.
    public var requestID: String?
    /// `<Resource>`, `<Key>` or `<BucketName>`: what the error is about, when S3 says.
    public var resource: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The code.
    ///   - status: The HTTP status.
    ///   - message: The message.
    ///   - requestID: The request ID.
    ///   - resource: The resource.
    public init(code: Code, status: Int, message: String = "", requestID: String? = nil, resource: String? = nil) {
        self.code = code
        self.status = status
        self.message = message
        self.requestID = requestID
        self.resource = resource
    }

    /// `S3 <code> (HTTP <status>): <message>`.
    public var description: String {
        "S3 \(code) (HTTP \(status))" + (message.isEmpty ? "" : ": \(message)")
            + (resource.map { " [\($0)]" } ?? "")
    }
}
