public import HTTPCore
public import Logging

/// The composition root: one client built from the plugins the app picked, shared by the whole app.
///
/// Only the transport is required; every other slot has an in-memory default.
///
/// ```swift
/// let client = Client(
///     transport: .posix(),                      // SocketTransport
///     cookies: MemoryCookieJar(),               // the default
///     credentials: SessionCredentialStore()     // the default
/// )
/// let response = try await client.send(Request(url: URL(string: "http://127.0.0.1:8080/")!))
/// print(response.status, response.text())
/// ```
///
/// The client applies the pipeline's rules around every request: redirects, cookies, the 401 challenge loop,
/// cache lookups, retries after a timeout and the `User-Agent`. The transport sends one hop at a time.
public struct Client: Sendable {
    /// Sends each hop over the network.
    public let transport: any Transport
    /// Keeps responses; ``NoCache`` by default.
    public let cache: any CacheStore
    /// Keeps cookies; ``MemoryCookieJar`` by default.
    public let cookies: any CookieStore
    /// Keeps credentials that worked; ``SessionCredentialStore`` by default.
    public let credentials: any CredentialStore
    /// Wraps every transport call, outermost first.
    public let middleware: [any Middleware]
    /// Decode compressed responses and compress request bodies, for example `.zlib()` from GzipCodec; none by
    /// default, and then no `Accept-Encoding` is sent.
    public let codecs: [any ContentCodec]
    /// Receives byte progress for every request; ``NoProgress`` by default.
    public let progress: any ProgressSink
    /// Client-wide settings.
    public let configuration: Configuration

    /// Creates a client.
    /// - Parameters:
    ///   - transport: Sends requests over the network, for example `.posix()` from SocketTransport.
    ///   - cache: Keeps responses; nothing is cached by default.
    ///   - cookies: Keeps cookies; an in-memory jar by default.
    ///   - credentials: Keeps credentials that worked; in memory by default.
    ///   - middleware: Wraps every transport call, outermost first.
    ///   - codecs: Content codecs for `Accept-Encoding`, response decoding and request body compression.
    ///   - progress: Receives byte progress for every request.
    ///   - configuration: Client-wide settings.
    public init(
        transport: any Transport,
        cache: any CacheStore = NoCache(),
        cookies: any CookieStore = MemoryCookieJar(),
        credentials: any CredentialStore = SessionCredentialStore(),
        middleware: [any Middleware] = [],
        codecs: [any ContentCodec] = [],
        progress: any ProgressSink = NoProgress(),
        configuration: Configuration = Configuration()
    ) {
        self.transport = transport
        self.cache = cache
        self.cookies = cookies
        self.credentials = credentials
        self.middleware = middleware
        self.codecs = codecs
        self.progress = progress
        self.configuration = configuration
    }

    /// Closes the transport's idle connections and frees its resources.
    /// - Throws: ``ClientError`` from the transport.
    public func shutdown() async throws {
        try await transport.shutdown()
    }
}

extension Client {
    /// Client-wide settings.
    public struct Configuration: Sendable {
        /// The `User-Agent` sent when neither the request's header nor ``RequestOptions/userAgent`` sets one
        /// (ASIHTTPRequest's `defaultUserAgentString`). Default: `<process> (Linux <release>; <arch>) ASIKit/<version>`.
        public var userAgent: String
        /// Asked for credentials when a server challenges and no stored or request credential works
        /// (ASIHTTPRequest's `authenticationNeededForRequest:`). Return `nil` to give up.
        public var authenticationHandler: (@Sendable (AuthenticationChallenge) async throws -> Credential?)?
        /// The largest response body ``Client/send(_:)`` collects in memory. Default 1 GiB.
        public var maxBodySize: Int
        /// The largest body the pipeline holds to store in the cache. Default 8 MiB.
        public var maxCacheEntrySize: Int
        /// Where the pipeline logs (ASIHTTPRequest's debug flags): `debug` for request status, redirects and
        /// authentication. Never logs credentials or cookie values.
        public var logger: Logger

        /// Creates settings with the defaults.
        /// - Parameters:
        ///   - userAgent: The default `User-Agent`.
        ///   - authenticationHandler: Asked for credentials on a challenge.
        ///   - logger: Where the pipeline logs.
        public init(
            userAgent: String? = nil,
            authenticationHandler: (@Sendable (AuthenticationChallenge) async throws -> Credential?)? = nil,
            logger: Logger = Logger(label: "asikit", factory: { _ in SwiftLogNoOpLogHandler() })
        ) {
            self.userAgent = userAgent ?? UserAgent.default
            self.authenticationHandler = authenticationHandler
            self.maxBodySize = 1 << 30
            self.maxCacheEntrySize = 8 << 20
            self.logger = logger
        }
    }
}
