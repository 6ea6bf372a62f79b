import FoundationEssentials
public import HTTPCore
public import HTTPPipeline
public import S3

/// Amazon S3 (and S3-compatible servers) through a `Client`: the heir of ASIHTTPRequest's `ASIS3Request`
/// family. Objects, buckets, listings as pages, and multipart uploads of large files through a `RequestQueue`.
///
/// The client it sends through signs with ``S3/S3SigningMiddleware`` (the convenience initializer adds it), so
/// the pipeline's retries and redirects are signed as sent. Every operation throws ``S3/S3Error`` for an answer
/// S3 refused (`NoSuchKey`, `AccessDenied`, `SignatureDoesNotMatch`, …) and `ClientError` for transport failures.
///
/// ```swift
/// let credentials = try AWSCredentials.fromEnvironment() ?? AWSCredentials.fromSharedFile()
/// let s3 = S3Client(transport: .posix(), endpoint: .aws(region: "eu-west-1"), credentials: credentials)
/// try await s3.putObject(bucket: "photos", key: "cat.jpg", fileAtPath: "cat.jpg")
/// for try await page in s3.listObjects(bucket: "photos", prefix: "2026/") { print(page.objects.map(\.key)) }
/// ```
public struct S3Client: Sendable {
    /// The client requests go through; it must sign them (``S3/S3SigningMiddleware``).
    public let client: Client
    /// The request builder for the endpoint.
    public let requests: S3Requests

    /// Uses a client that already signs (its middleware includes ``S3/S3SigningMiddleware``).
    /// - Parameters:
    ///   - client: The client.
    ///   - endpoint: Where S3 is.
    ///   - options: The options of every request (timeouts, retries on timeout); the defaults by default.
    public init(client: Client, endpoint: S3Endpoint, options: RequestOptions = RequestOptions()) {
        self.client = client
        self.requests = S3Requests(endpoint: endpoint, options: options)
    }

    /// Makes a client on a transport that signs requests to the endpoint's host (and its bucket subdomains) only.
    /// - Parameters:
    ///   - transport: The transport, for example `.posix()`.
    ///   - endpoint: Where S3 is.
    ///   - credentials: The key that signs.
    ///   - middleware: More middleware, inside the signer (they run after it has signed).
    ///   - options: The options of every request (timeouts, retries on timeout); the defaults by default.
    public init(
        transport: any Transport, endpoint: S3Endpoint, credentials: AWSCredentials, middleware: [any Middleware] = [],
        options: RequestOptions = RequestOptions()
    ) {
        let signer = S3SigningMiddleware(
            credentials: credentials, region: endpoint.region, scope: .hosts([endpoint.url.host ?? ""]))
        self.init(
            client: Client(transport: transport, middleware: [signer] + middleware), endpoint: endpoint,
            options: options)
    }

    /// The endpoint.
    public var endpoint: S3Endpoint { requests.endpoint }

    /// Sends a request and returns its answer when S3 accepted it (2xx).
    /// - Parameter request: A request from ``requests``, or one of your own.
    /// - Returns: The response.
    /// - Throws: ``S3/S3Error`` for a failing status (with S3's code from the XML body); `ClientError` from the
    ///   pipeline.
    @discardableResult
    public func perform(_ request: Request) async throws -> ClientResponse {
        let response = try await client.send(request)
        try Self.check(response)
        return response
    }

    static func check(_ response: ClientResponse) throws {
        let code = response.status.code
        guard code < 200 || code >= 300 else { return }
        throw S3ResponseParser.error(status: code, fields: response.headerFields, body: response.body)
    }

    /// Shuts the client down.
    /// - Throws: Whatever a plug-in's shutdown throws.
    public func shutdown() async throws { try await client.shutdown() }
}
