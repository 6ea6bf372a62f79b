public import HTTPCore
public import Logging

/// The composition root: one client built from the plugins the app picked, shared by the whole app.
///
/// Only the transport is required. The cookie and credential slots have in-memory defaults (ASIHTTPRequest's
/// `useCookiePersistence` and `useSessionPersistence` are on by default); every other slot is empty (`nil`)
/// until a plug-in fills it, and an empty slot costs nothing on the request path.
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
    /// What the client holds, in one immutable object: a `Client` is one reference, so each copy the pipeline makes
    /// (its stages, the async frames of every request) and each type that keeps a client costs 8 bytes instead of
    /// 640, and what the pipeline adds here never changes a layout that other modules were compiled against.
    final class Storage: Sendable {
        let transport: any Transport
        let cache: (any CacheStore)?
        let cookies: any CookieStore
        let hsts: (any HSTSStore)?
        let credentials: any CredentialStore
        let persistentCredentials: (any CredentialStore)?
        let middleware: [any Middleware]
        let codecs: [any ContentCodec]
        let authenticators: [any HTTPAuthenticator]
        let authenticationSessions: AuthenticationSessions
        /// The authentication and cache stages every request of the client uses: built once, here, so a request's
        /// async frame holds no copy of them.
        let authenticationStage: AuthenticationStage
        let cacheStage: CacheStage
        let acceptEncoding: String?
        /// The `User-Agent` field of the configured agent, built (and its value checked) once, not for every hop.
        let userAgentField: HTTPField
        let progress: (any ProgressSink)?
        let bandwidth: (any BandwidthLimiter)?
        let configuration: Configuration

        init(
            transport: any Transport, cache: (any CacheStore)?, cookies: any CookieStore, hsts: (any HSTSStore)?,
            credentials: any CredentialStore, persistentCredentials: (any CredentialStore)?,
            middleware: [any Middleware], codecs: [any ContentCodec], authenticators: [any HTTPAuthenticator],
            progress: (any ProgressSink)?, bandwidth: (any BandwidthLimiter)?, configuration: Configuration
        ) {
            self.transport = transport
            self.cache = cache
            self.cookies = cookies
            self.hsts = hsts
            self.credentials = credentials
            self.persistentCredentials = persistentCredentials
            self.middleware = middleware
            self.codecs = codecs
            self.authenticators = authenticators
            self.acceptEncoding = ContentCoding.acceptEncoding(for: codecs)
            self.userAgentField = HTTPField(name: .userAgent, value: configuration.userAgent)
            self.progress = progress
            self.bandwidth = bandwidth
            self.configuration = configuration
            let sessions = AuthenticationSessions()
            self.authenticationSessions = sessions
            self.authenticationStage = AuthenticationStage(
                store: credentials, persistentStore: persistentCredentials,
                handler: configuration.authenticationHandler, ordered: AuthenticationStage.ordered(authenticators),
                sessions: sessions)
            self.cacheStage = CacheStage(store: cache, configuration: configuration.cache, codecs: codecs)
        }
    }

    let storage: Storage

    /// Sends each hop over the network.
    public var transport: any Transport { storage.transport }
    /// Keeps responses; `nil` (nothing is cached) by default.
    public var cache: (any CacheStore)? { storage.cache }
    /// Keeps cookies; ``MemoryCookieJar`` by default.
    public var cookies: any CookieStore { storage.cookies }
    /// Keeps the hosts that sent `Strict-Transport-Security`, whose `http` URLs are then sent as `https`
    /// (RFC 6797); `nil` (no HSTS) by default. ``MemoryHSTSStore``, or `HSTSFileStore` for curl's file.
    public var hsts: (any HSTSStore)? { storage.hsts }
    /// Keeps credentials that worked for the life of the client; ``SessionCredentialStore`` by default
    /// (ASIHTTPRequest's session store, used when ``RequestOptions/usesCredentialStore`` is on).
    public var credentials: any CredentialStore { storage.credentials }
    /// Keeps credentials across launches (ASIHTTPRequest's Keychain; the `FileKeyring` plug-in on Linux), used
    /// only by requests that ask for it; `nil` by default.
    public var persistentCredentials: (any CredentialStore)? { storage.persistentCredentials }
    /// Wraps every transport call, outermost first.
    public var middleware: [any Middleware] { storage.middleware }
    /// Decode compressed responses and compress request bodies, for example `.zlib()` from GzipCodec; none by
    /// default, and then no `Accept-Encoding` is sent.
    public var codecs: [any ContentCodec] { storage.codecs }
    /// Answer authentication schemes beyond the built-in Basic and Bearer, for example `.digest()` and `.ntlm()`
    /// from HTTPAuthentication; none by default.
    public var authenticators: [any HTTPAuthenticator] { storage.authenticators }
    /// Accepted negotiations by origin, sent up front to later requests (Digest counts its nonce on).
    var authenticationSessions: AuthenticationSessions { storage.authenticationSessions }
    /// The `Accept-Encoding` the codecs offer, `nil` without codecs; built once, here, not for every hop.
    var acceptEncoding: String? { storage.acceptEncoding }
    /// The configured `User-Agent` as a header field, built once.
    var userAgentField: HTTPField { storage.userAgentField }
    /// Receives byte progress for every request; `nil` by default.
    public var progress: (any ProgressSink)? { storage.progress }
    /// Shares a bandwidth budget between every request of the client (ASIHTTPRequest's
    /// `maxBandwidthPerSecond`, the `Throttle` plug-in); `nil` (no limit) by default.
    public var bandwidth: (any BandwidthLimiter)? { storage.bandwidth }
    /// The bytes per second the client's requests moved lately, both directions together (ASIHTTPRequest's
    /// `averageBandwidthUsedPerSecond`): the limiter's ``BandwidthLimiter/averageBytesPerSecond``, 0 without one.
    public var averageBandwidthPerSecond: Int { bandwidth?.averageBytesPerSecond ?? 0 }
    /// Client-wide settings.
    public var configuration: Configuration { storage.configuration }

    /// Creates a client.
    /// - Parameters:
    ///   - transport: Sends requests over the network, for example `.posix()` from SocketTransport.
    ///   - cache: Keeps responses; nothing is cached by default.
    ///   - cookies: Keeps cookies; an in-memory jar by default.
    ///   - hsts: Keeps HSTS hosts and upgrades requests to them; none by default.
    ///   - credentials: Keeps credentials that worked; in memory by default.
    ///   - persistentCredentials: Keeps credentials across launches for requests that ask; none by default.
    ///   - middleware: Wraps every transport call, outermost first.
    ///   - codecs: Content codecs for `Accept-Encoding`, response decoding and request body compression.
    ///   - authenticators: Authentication schemes beyond Basic and Bearer (Digest, NTLM).
    ///   - progress: Receives byte progress for every request.
    ///   - bandwidth: Limits the bandwidth of every request together; no limit by default.
    ///   - configuration: Client-wide settings.
    public init(
        transport: any Transport,
        cache: (any CacheStore)? = nil,
        cookies: any CookieStore = MemoryCookieJar(),
        hsts: (any HSTSStore)? = nil,
        credentials: any CredentialStore = SessionCredentialStore(),
        persistentCredentials: (any CredentialStore)? = nil,
        middleware: [any Middleware] = [],
        codecs: [any ContentCodec] = [],
        authenticators: [any HTTPAuthenticator] = [],
        progress: (any ProgressSink)? = nil,
        bandwidth: (any BandwidthLimiter)? = nil,
        configuration: Configuration = Configuration()
    ) {
        self.storage = Storage(
            transport: transport, cache: cache, cookies: cookies, hsts: hsts, credentials: credentials,
            persistentCredentials: persistentCredentials, middleware: middleware, codecs: codecs,
            authenticators: authenticators, progress: progress, bandwidth: bandwidth, configuration: configuration)
    }

    /// Every plug-in the client owns, transport first: the ones ``run()`` runs and ``shutdown()`` reaches.
    public var plugins: [any PluginLifecycle] {
        var plugins: [any PluginLifecycle] = [transport]
        if let cache { plugins.append(cache) }
        plugins.append(cookies)
        if let hsts { plugins.append(hsts) }
        plugins.append(credentials)
        if let persistentCredentials { plugins.append(persistentCredentials) }
        if let bandwidth { plugins.append(bandwidth) }
        plugins += middleware
        return plugins
    }

    /// Runs every plug-in's background work (a disk cache's eviction, a keyring's flush) until the task is
    /// cancelled, like a service: await it in the app's task group beside its other services and cancel it when
    /// the app stops. It keeps waiting after plug-ins without background work return, so a task group that ends
    /// when its first child ends is not ended by it.
    /// - Throws: The first error a plug-in's ``PluginLifecycle/run()`` throws; the others are then cancelled. A
    ///   cancellation ends it without an error.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for plugin in plugins {
                group.addTask { try await plugin.run() }
            }
            do {
                try await group.waitForAll()
            } catch is CancellationError {
                return
            }
        }
        await Self.waitUntilCancelled()
    }

    /// Returns when the current task is cancelled, and at once when it already is: a stream nobody writes to, whose
    /// iteration ends on cancellation. No timer wakes it in between.
    private static func waitUntilCancelled() async {
        let (never, continuation) = AsyncStream<Never>.makeStream()
        defer { continuation.finish() }  // also keeps the stream open until the wait is over
        for await _ in never {}
    }

    /// Shuts down every plug-in the client owns, in ``plugins`` order: the transport closes its connections, stores
    /// flush. Every plug-in is reached even when one fails.
    /// - Throws: The first error a plug-in threw.
    public func shutdown() async throws {
        var firstError: (any Error)?
        for plugin in plugins {
            do {
                try await plugin.shutdown()
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
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
        /// Where the pipeline logs (ASIHTTPRequest's debug flags): `debug` for request status, redirects and
        /// authentication. Never logs credentials or cookie values.
        public var logger: Logger
        /// Refuses cookies set for public suffixes such as `co.uk` (RFC 6265 §5.3 step 5). Default `nil`: only
        /// single-label domains such as `com` are refused, so a site under `co.uk` could set a cookie every other
        /// `co.uk` site receives. `Client.standard()` in `ASIKit` sets libpsl's list (the `PublicSuffix` plug-in).
        public var publicSuffixes: (any PublicSuffixList)?
        /// The cache rules: the default policy, whether `Cache-Control` is obeyed, the clock. Used only with a
        /// ``Client/cache`` store.
        public var cache = CacheConfiguration()
        /// Runs a request on the transport's own executor whenever the transport offers one
        /// (``Transport/preferredTaskExecutor``; `POSIXTransport` offers its event loop while other requests are in
        /// flight), so a wait for a socket resumes on the thread that saw it ready instead of hopping to another.
        /// Default `true`. Everything the pipeline runs for such a request then runs on that one thread: middleware,
        /// data callbacks, progress sinks, the authentication handler, the cache, cookie and credential stores
        /// (file I/O, a keyring's key derivation), decoding and writing downloads. Nothing there may block, and
        /// the CPU work of overlapping requests no longer spreads over cores. Set `false` for handlers that block
        /// (a terminal prompt) or for CPU-heavy concurrent work on many cores (decision 0022).
        public var runsOnTransportExecutor = true
        /// The retry policy of requests whose ``RequestOptions/retryPolicy`` is `nil`. Default `nil`: no retries
        /// beyond ``RequestOptions/retriesOnTimeout``.
        public var retryPolicy: RetryPolicy?

        /// Creates settings with the defaults.
        /// - Parameters:
        ///   - userAgent: The default `User-Agent`.
        ///   - authenticationHandler: Asked for credentials on a challenge.
        ///   - logger: Where the pipeline logs.
        ///   - publicSuffixes: Refuses cookies for public suffixes; without it only single-label domains.
        public init(
            userAgent: String? = nil,
            authenticationHandler: (@Sendable (AuthenticationChallenge) async throws -> Credential?)? = nil,
            logger: Logger = Logger(label: "asikit", factory: { _ in SwiftLogNoOpLogHandler() }),
            publicSuffixes: (any PublicSuffixList)? = nil
        ) {
            self.userAgent = userAgent ?? UserAgent.default
            self.authenticationHandler = authenticationHandler
            self.maxBodySize = 1 << 30
            self.logger = logger
            self.publicSuffixes = publicSuffixes
        }
    }
}
