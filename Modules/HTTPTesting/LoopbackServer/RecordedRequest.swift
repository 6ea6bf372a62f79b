/// A request as ``LoopbackServer`` received it: the head exactly as sent, and the body after de-chunking.
///
/// The handler gets one for each request, and ``LoopbackServer/requests`` keeps them all in order, so a test can
/// check exactly what a client put on the wire.
public struct RecordedRequest: Sendable {
    /// One header or trailer line: the name with its original case, and the value without surrounding spaces.
    public struct HeaderField: Sendable, Hashable, CustomStringConvertible {
        /// The field name as sent, case preserved.
        public var name: String
        /// The field value with leading and trailing spaces and tabs removed.
        public var value: String

        /// Creates a field.
        /// - Parameters:
        ///   - name: The field name.
        ///   - value: The field value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// `Name: value`, as on the wire.
        public var description: String { "\(name): \(value)" }
    }

    /// The method token, such as `GET`.
    public var method: String
    /// The request target as sent, such as `/path?query` (or an absolute URL when sent to a proxy).
    public var target: String
    /// ``target`` without its query.
    public var path: String
    /// The protocol version from the request line, such as `HTTP/1.1`.
    public var version: String
    /// The header fields in the order sent.
    public var headers: [HeaderField]
    /// The trailer fields of a chunked body, in the order sent; empty otherwise.
    public var trailers: [HeaderField]
    /// The body, de-chunked when it was sent chunked.
    public var body: [UInt8]
    /// Whether the body came with `Transfer-Encoding: chunked`.
    public var bodyWasChunked: Bool
    /// The 0-based index of the TCP connection the request came on, in accept order.
    public var connectionIndex: Int
    /// The 0-based position of the request among those on its connection; above 0 means a reused connection.
    public var indexOnConnection: Int

    /// Creates a request; the server makes these, and tests may make them to call a handler directly.
    /// - Parameters:
    ///   - method: The method token.
    ///   - target: The request target.
    ///   - version: The protocol version.
    ///   - headers: The header fields in order.
    ///   - trailers: The trailer fields in order.
    ///   - body: The de-chunked body.
    ///   - bodyWasChunked: Whether the body was sent chunked.
    ///   - connectionIndex: The connection's index.
    ///   - indexOnConnection: The request's position on its connection.
    public init(
        method: String,
        target: String,
        version: String = "HTTP/1.1",
        headers: [HeaderField] = [],
        trailers: [HeaderField] = [],
        body: [UInt8] = [],
        bodyWasChunked: Bool = false,
        connectionIndex: Int = 0,
        indexOnConnection: Int = 0
    ) {
        self.method = method
        self.target = target
        self.path = String(target.prefix { $0 != "?" })
        self.version = version
        self.headers = headers
        self.trailers = trailers
        self.body = body
        self.bodyWasChunked = bodyWasChunked
        self.connectionIndex = connectionIndex
        self.indexOnConnection = indexOnConnection
    }

    /// The query of ``target`` without the `?`, or `nil` when there is none.
    public var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }

    /// The body decoded as UTF-8, with invalid bytes replaced.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The first value of a header, matching the name case-insensitively.
    /// - Parameter name: The field name.
    /// - Returns: The first value, or `nil` when the header is absent.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of a header, in order, matching the name case-insensitively.
    /// - Parameter named: The field name.
    /// - Returns: The values; empty when the header is absent.
    public func headers(named: String) -> [String] {
        let lowered = named.lowercased()
        return headers.filter { $0.name.lowercased() == lowered }.map(\.value)
    }
}
