public import FoundationEssentials

/// A response's status line and header fields: one value, made once by the transport's parser and carried unchanged
/// to the caller — in ``Response``, the pipeline's streaming and collected responses, and the callbacks.
///
/// It wraps swift-http-types' `HTTPResponse` (status, reason phrase and header fields), the head swift-openapi-runtime
/// and Hummingbird use, so an adapter hands ``response`` on as it is, and adds what HTTP/1 says beside it: the
/// version and the URL the response answered.
public struct ResponseHead: Sendable {
    /// The status, the reason phrase as sent, and the header fields.
    public var response: HTTPResponse
    /// The protocol version the server answered with.
    public var version: HTTPVersion
    /// The URL this response answered: the pipeline sets it to the URL of the hop it sent; `nil` in a response a
    /// transport has just made.
    public var url: URL?

    /// Creates a head around a response.
    /// - Parameters:
    ///   - response: The status and header fields.
    ///   - version: The protocol version.
    ///   - url: The URL the response answered, if known.
    public init(_ response: HTTPResponse, version: HTTPVersion = .http1_1, url: URL? = nil) {
        self.response = response
        self.version = version
        self.url = url
    }

    /// Creates a head.
    /// - Parameters:
    ///   - status: The status.
    ///   - version: The protocol version.
    ///   - headerFields: The header fields.
    ///   - url: The URL the response answered, if known.
    public init(
        status: HTTPResponse.Status, version: HTTPVersion = .http1_1, headerFields: HTTPFields = [:], url: URL? = nil
    ) {
        self.init(HTTPResponse(status: status, headerFields: headerFields), version: version, url: url)
    }

    /// The status code and reason phrase.
    public var status: HTTPResponse.Status {
        get { response.status }
        set { response.status = newValue }
    }

    /// The header fields; lookups are case-insensitive.
    public var headerFields: HTTPFields {
        get { response.headerFields }
        _modify { yield &response.headerFields }
        set { response.headerFields = newValue }
    }

    /// The whole status line, for example `HTTP/1.1 404 Not Found` (ASIHTTPRequest's `responseStatusMessage`).
    public var statusLine: String {
        let status = status
        return "\(version) \(status.code) \(status.reasonPhrase)"
    }
}
