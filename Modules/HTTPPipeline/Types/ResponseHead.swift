public import FoundationEssentials
public import HTTPCore

/// A response's status line and header fields, with the URL it came from.
public struct ResponseHead: Sendable {
    /// The status.
    public var status: HTTPResponse.Status
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields; lookups are case-insensitive.
    public var headerFields: HTTPFields
    /// The URL this response answered.
    public var url: URL

    /// Creates a head.
    /// - Parameters:
    ///   - status: The status.
    ///   - version: The protocol version.
    ///   - headerFields: The header fields.
    ///   - url: The URL it answered.
    public init(status: HTTPResponse.Status, version: HTTPVersion, headerFields: HTTPFields, url: URL) {
        self.status = status
        self.version = version
        self.headerFields = headerFields
        self.url = url
    }

    /// The whole status line, for example `HTTP/1.1 404 Not Found`.
    public var statusLine: String { "\(version) \(status.code) \(status.reasonPhrase)" }
}
