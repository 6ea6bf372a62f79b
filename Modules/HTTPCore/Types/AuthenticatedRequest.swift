/// What an ``AuthenticationNegotiation`` may read of the request it authorizes: the method, the request-target
/// exactly as it goes on the request line, and the body when it is held in memory (Digest `auth-int`).
public struct AuthenticatedRequest: Sendable, Hashable {
    /// The method, such as `GET` (`CONNECT` for a tunnel's proxy authorization).
    public var method: String
    /// The request-target as sent: origin-form (`/path?query`), absolute-form (`http://host/path` to a forward
    /// proxy), authority-form (`host:port`, for `CONNECT`) or asterisk-form (`*`).
    public var target: String
    /// The body's bytes when they are in memory or empty; `nil` when the body is a file or a stream.
    public var body: [UInt8]?

    /// Creates the view of a request.
    /// - Parameters:
    ///   - method: The method.
    ///   - target: The request-target.
    ///   - body: The body's bytes, when known.
    public init(method: String, target: String, body: [UInt8]? = []) {
        self.method = method
        self.target = target
        self.body = body
    }
}
