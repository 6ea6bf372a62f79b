import FoundationEssentials
public import HTTPCore
public import HTTPPipeline

/// OpenStack Swift's object storage API v1 (Rackspace Cloud Files, OVHcloud, private clouds) through a `Client`:
/// the heir of ASIHTTPRequest's `ASICloudFilesRequest` family.
///
/// Authenticates on first use (v1, Keystone v3 or Rackspace identity; ``CloudFilesAuthentication``), keeps the
/// token, and renews it once when Swift answers `401` (``CloudFilesTokenMiddleware``). Every operation throws
/// ``CloudFilesError`` for an answer Swift refused and `ClientError` for transport failures.
///
/// ```swift
/// let files = CloudFilesClient(transport: .posix(),
///     authentication: .v1(url: URL(string: "http://127.0.0.1:8080/auth/v1.0")!, user: "test:tester", key: "testing"))
/// try await files.createContainer("photos")
/// try await files.putObject(container: "photos", name: "cat.jpg", body: try .file(atPath: "cat.jpg"))
/// for try await page in files.listObjects(container: "photos", prefix: "2026/") { print(page.map(\.name)) }
/// ```
public struct CloudFilesClient: Sendable {
    /// The client requests go through; its outermost middleware is ``tokens``.
    public let client: Client
    /// Holds the session and adds the token to storage requests.
    public let tokens: CloudFilesTokenMiddleware
    /// The options of every request (timeouts, retries on timeout).
    public let options: RequestOptions
    let limits: LimitsCache

    /// Makes a client on a transport.
    /// - Parameters:
    ///   - transport: The transport, for example `.posix()`.
    ///   - authentication: How to authenticate.
    ///   - credentialStore: Where to keep the session (token and storage URL) between runs, for example a
    ///     `FileCredentialStore`; `nil` keeps it in memory.
    ///   - middleware: More middleware, inside the token middleware.
    ///   - options: The options of every request; the defaults by default.
    public init(
        transport: any Transport, authentication: CloudFilesAuthentication,
        credentialStore: (any CredentialStore)? = nil, middleware: [any Middleware] = [],
        options: RequestOptions = RequestOptions()
    ) {
        let tokens = CloudFilesTokenMiddleware(
            authentication: authentication, credentialStore: credentialStore, identityTransport: transport,
            options: options)
        self.init(
            client: Client(transport: transport, middleware: [tokens] + middleware), tokens: tokens, options: options)
    }

    /// Uses a client whose middleware includes `tokens`.
    /// - Parameters:
    ///   - client: The client.
    ///   - tokens: The token middleware in `client`'s chain.
    ///   - options: The options of every request.
    public init(client: Client, tokens: CloudFilesTokenMiddleware, options: RequestOptions = RequestOptions()) {
        self.client = client
        self.tokens = tokens
        self.options = Self.storageOptions(options)
        self.limits = LimitsCache()
    }

    /// The session, authenticating first when there is none.
    /// - Returns: The token (never printed by its description), storage URL and CDN management URL.
    /// - Throws: ``CloudFilesError`` (`.unauthorized` for refused credentials) or `ClientError`.
    public func session() async throws -> CloudFilesSession { try await tokens.session() }

    /// Sends a request and returns its answer when Swift accepted it (2xx).
    /// - Parameter request: The request.
    /// - Returns: The response.
    /// - Throws: ``CloudFilesError`` for a failing status; `ClientError` from the pipeline.
    @discardableResult
    public func perform(_ request: Request) async throws -> ClientResponse {
        let response = try await client.send(request)
        try Self.check(response)
        return response
    }

    /// The pipeline's HTTP authentication stays out of the way: Swift's `401` answers the token, which the token
    /// middleware renews, and no stored password is offered to the storage or identity servers.
    static func storageOptions(_ options: RequestOptions) -> RequestOptions {
        var options = options
        options.failsOnUnansweredChallenge = false
        options.usesCredentialStore = false
        options.usesPersistentCredentialStore = false
        options.presentsCredentialsBeforeChallenge = false
        return options
    }

    static func check(_ response: ClientResponse) throws {
        let code = response.status.code
        guard code < 200 || code >= 300 else { return }
        throw CloudFilesResponses.error(status: code, fields: response.headerFields, body: response.body)
    }

    /// A request to the storage URL plus a container and object, with query items.
    func request(
        _ method: HTTPRequest.Method, container: String? = nil, object: String? = nil, query: [(String, String?)] = [],
        headers: HTTPFields = [:], body: RequestBody? = nil
    ) async throws -> Request {
        let base = try await session().storageURL
        return try Self.request(
            method, base: base, container: container, object: object, query: query, headers: headers, body: body,
            options: options)
    }

    static func request(
        _ method: HTTPRequest.Method, base: URL, container: String?, object: String?, query: [(String, String?)],
        headers: HTTPFields, body: RequestBody?, options: RequestOptions
    ) throws -> Request {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        if let container {
            guard !container.isEmpty, !container.contains("/") else {
                throw CloudFilesError(code: .invalidInput, message: "a container name is not empty and has no '/'")
            }
            text += "/" + PathEncoding.path(container, keepsSlash: false)
            if let object {
                guard !object.isEmpty else {
                    throw CloudFilesError(code: .invalidInput, message: "an empty object name")
                }
                text += "/" + PathEncoding.path(object)
            }
        }
        if !query.isEmpty {
            text +=
                "?"
                + query.map { item in item.1.map { "\(item.0)=\(PathEncoding.query($0))" } ?? item.0 }
                .joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            throw CloudFilesError(code: .invalidInput, message: "cannot make a URL of the name")
        }
        return Request(url: url, method: method, headerFields: headers, body: body, options: options)
    }

    /// Shuts the client down.
    /// - Throws: Whatever a plug-in's shutdown throws.
    public func shutdown() async throws { try await client.shutdown() }
}
