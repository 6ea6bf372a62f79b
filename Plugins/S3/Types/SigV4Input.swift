/// What Signature Version 4 signs of a request: the method, the path and query as sent, the header fields to
/// sign, and the payload's hash.
public struct SigV4Input: Sendable {
    /// The method, for example `GET`.
    public var method: String
    /// The path as sent on the request line, percent-encoded (`/my%20key`); empty means `/`.
    public var path: String
    /// The query as sent, without `?`, or `nil`.
    public var query: String?
    /// The header fields to sign, in order; `Host` must be among them. Repeated names are joined with commas.
    public var headerFields: [(name: String, value: String)]
    /// The lowercase hex SHA-256 of the body, or ``SigV4Input/unsignedPayload``.
    public var payloadHash: String

    /// The payload hash S3 accepts when the body is not hashed (streamed bodies, presigned URLs).
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The hash of an empty body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Creates the input.
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The percent-encoded path as sent.
    ///   - query: The query as sent, or `nil`.
    ///   - headerFields: The fields to sign, `Host` included.
    ///   - payloadHash: The body's hash; the empty body's by default.
    public init(
        method: String, path: String, query: String? = nil, headerFields: [(name: String, value: String)],
        payloadHash: String = SigV4Input.emptyPayloadHash
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headerFields = headerFields
        self.payloadHash = payloadHash
    }

    /// The hex SHA-256 of a body held in memory.
    /// - Parameter body: The body's bytes.
    /// - Returns: The lowercase hex digest.
    public static func payloadHash(of body: [UInt8]) -> String { Crypto.hex(Crypto.sha256(body)) }
}
