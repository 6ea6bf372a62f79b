/// How a request is carried out. Every default is ASIHTTPRequest's.
public struct RequestOptions: Sendable {
    /// The options' values, shared between copies until one of them changes (copy on write): a ``Request`` stays a
    /// few words wide however many options there are, so passing and copying one costs a retain, not a copy of
    /// every field.
    private final class Storage: @unchecked Sendable {  // mutated only while uniquely referenced
        var timeout: Duration? = .seconds(10)
        var connectTimeout: Duration? = nil
        var lowSpeedLimit: LowSpeedLimit? = nil
        var retriesOnTimeout: Int = 0
        var retryPolicy: RetryPolicy? = nil
        var followsRedirects: Bool = true
        var redirectBehavior: RedirectBehavior = .browser
        var maxRedirects: Int = 5
        var userAgent: String? = nil
        var credential: Credential? = nil
        var authenticationScheme: AuthenticationScheme? = nil
        var presentsCredentialsBeforeChallenge: Bool = true
        var usesCredentialStore: Bool = true
        var usesPersistentCredentialStore: Bool = false
        var proxyCredential: Credential? = nil
        var proxyAuthenticationScheme: AuthenticationScheme? = nil
        var failsOnUnansweredChallenge: Bool = true
        var keepsMethodWithBody: Bool = false
        var keepsMethodOnRedirect: Bool = false
        var keepsCredentialsOnRedirect: Bool = false
        var withholdsBodyUntilChallenged: Bool = false
        var usesCookieStore: Bool = true
        var requestCookies: [Cookie] = []
        var cachePolicy: CachePolicy = []
        var secondsToCache: Int? = nil
        var cacheStoragePolicy: CacheStoragePolicy = .sessionDuration
        var httpVersion: HTTPVersion = .http1_1
        var persistentConnection: Bool? = nil
        var persistentConnectionTimeout: Duration = .seconds(60)
        var tls: TLSOptions = TLSOptions()
        var progress: (any ProgressSink)? = nil
        var allowsCompressedResponse: Bool = true
        var inflatesWhenComplete: Bool = true
        var compressesRequestBody: Bool = false
        var download: DownloadOptions? = nil
        var maxBandwidthPerSecond: Int? = nil
        var proxyResolver: (any ProxyResolver)? = nil
        var tunnelsThroughProxy: Bool = false

        init() {}

        init(copying other: Storage) {
            timeout = other.timeout
            connectTimeout = other.connectTimeout
            lowSpeedLimit = other.lowSpeedLimit
            retriesOnTimeout = other.retriesOnTimeout
            retryPolicy = other.retryPolicy
            followsRedirects = other.followsRedirects
            redirectBehavior = other.redirectBehavior
            maxRedirects = other.maxRedirects
            userAgent = other.userAgent
            credential = other.credential
            authenticationScheme = other.authenticationScheme
            presentsCredentialsBeforeChallenge = other.presentsCredentialsBeforeChallenge
            usesCredentialStore = other.usesCredentialStore
            usesPersistentCredentialStore = other.usesPersistentCredentialStore
            proxyCredential = other.proxyCredential
            proxyAuthenticationScheme = other.proxyAuthenticationScheme
            failsOnUnansweredChallenge = other.failsOnUnansweredChallenge
            keepsMethodWithBody = other.keepsMethodWithBody
            keepsMethodOnRedirect = other.keepsMethodOnRedirect
            keepsCredentialsOnRedirect = other.keepsCredentialsOnRedirect
            withholdsBodyUntilChallenged = other.withholdsBodyUntilChallenged
            usesCookieStore = other.usesCookieStore
            requestCookies = other.requestCookies
            cachePolicy = other.cachePolicy
            secondsToCache = other.secondsToCache
            cacheStoragePolicy = other.cacheStoragePolicy
            httpVersion = other.httpVersion
            persistentConnection = other.persistentConnection
            persistentConnectionTimeout = other.persistentConnectionTimeout
            tls = other.tls
            progress = other.progress
            allowsCompressedResponse = other.allowsCompressedResponse
            inflatesWhenComplete = other.inflatesWhenComplete
            compressesRequestBody = other.compressesRequestBody
            download = other.download
            maxBandwidthPerSecond = other.maxBandwidthPerSecond
            proxyResolver = other.proxyResolver
            tunnelsThroughProxy = other.tunnelsThroughProxy
        }
    }

    private var storage: Storage

    /// The storage, copied first when another value shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        return storage
    }

    /// The inactivity timeout: the request fails with ``ClientError/Code/timedOut`` when nothing is sent or
    /// received for this long. `nil` disables it. Default 10 s (`timeOutSeconds`).
    public var timeout: Duration? {
        get { storage.timeout }
        set { uniqueStorage().timeout = newValue }
    }
    /// The longest a TCP connect plus TLS handshake may take; `nil` uses ``timeout``.
    public var connectTimeout: Duration? {
        get { storage.connectTimeout }
        set { uniqueStorage().connectTimeout = newValue }
    }
    /// The slowest the transfer may be for how long (curl's `--speed-limit` and `--speed-time`); it fails with
    /// ``ClientError/Code/timedOut`` past it. Applies beside ``timeout``. Default `nil`, none.
    public var lowSpeedLimit: LowSpeedLimit? {
        get { storage.lowSpeedLimit }
        set { uniqueStorage().lowSpeedLimit = newValue }
    }
    /// How many times a timed-out request is sent again before it fails (`numberOfTimesToRetryOnTimeout`). Default 0.
    /// A timeout while the body streams sends the current hop again and the body starts over: a data callback
    /// then sees the first bytes again (a resumable download continues with `Range` instead).
    public var retriesOnTimeout: Int {
        get { storage.retriesOnTimeout }
        set { uniqueStorage().retriesOnTimeout = newValue }
    }
    /// When a failed attempt is sent again: transient statuses (503 with `Retry-After`, 429, …) and transport errors,
    /// with exponential backoff (see ``RetryPolicy``). Default `nil`: the client's
    /// (`Client.Configuration.retryPolicy`, itself `nil` by default), so only ``retriesOnTimeout`` applies. Checked
    /// after ``retriesOnTimeout``, which retries a timeout at once.
    public var retryPolicy: RetryPolicy? {
        get { storage.retryPolicy }
        set { uniqueStorage().retryPolicy = newValue }
    }
    /// Whether 301, 302, 303, 307 and 308 responses are followed (`shouldRedirect`). Default `true`.
    public var followsRedirects: Bool {
        get { storage.followsRedirects }
        set { uniqueStorage().followsRedirects = newValue }
    }
    /// How 301 and 302 treat the method. Default ``RedirectBehavior/browser``.
    public var redirectBehavior: RedirectBehavior {
        get { storage.redirectBehavior }
        set { uniqueStorage().redirectBehavior = newValue }
    }
    /// The most redirects followed; one more fails with ``ClientError/Code/tooManyRedirects``. Default 5.
    public var maxRedirects: Int {
        get { storage.maxRedirects }
        set { uniqueStorage().maxRedirects = newValue }
    }
    /// The `User-Agent` for this request, when no `User-Agent` header is set (`userAgentString`).
    public var userAgent: String? {
        get { storage.userAgent }
        set { uniqueStorage().userAgent = newValue }
    }
    /// Credentials for this request (`username`/`password`). Sent when challenged, or up front when
    /// ``authenticationScheme`` is ``AuthenticationScheme/basic``.
    public var credential: Credential? {
        get { storage.credential }
        set { uniqueStorage().credential = newValue }
    }
    /// The scheme to use with ``credential``: `.basic` makes them go out before any challenge (and still answers
    /// any scheme offered); another scheme (`.digest`, `.ntlm`) is then the only one answered. Default `nil`: the
    /// strongest scheme offered is answered.
    public var authenticationScheme: AuthenticationScheme? {
        get { storage.authenticationScheme }
        set { uniqueStorage().authenticationScheme = newValue }
    }
    /// Whether credentials known for this URL are sent before a challenge
    /// (`shouldPresentCredentialsBeforeChallenge`). Default `true`.
    public var presentsCredentialsBeforeChallenge: Bool {
        get { storage.presentsCredentialsBeforeChallenge }
        set { uniqueStorage().presentsCredentialsBeforeChallenge = newValue }
    }
    /// Whether the client's credential store is used and updated (`useSessionPersistence`). Default `true`.
    public var usesCredentialStore: Bool {
        get { storage.usesCredentialStore }
        set { uniqueStorage().usesCredentialStore = newValue }
    }
    /// Whether the client's persistent credential store (`Client.persistentCredentials`, for example the
    /// FileKeyring plug-in) is asked after a challenge, and keeps the credentials that worked
    /// (`useKeychainPersistence`). Default `false`: nothing is read from or written to it, and a rejected
    /// credential is removed from it only when this is on.
    public var usesPersistentCredentialStore: Bool {
        get { storage.usesPersistentCredentialStore }
        set { uniqueStorage().usesPersistentCredentialStore = newValue }
    }
    /// Credentials for a proxy's 407 challenge (`proxyUsername`/`proxyPassword`/`proxyDomain`), tried after the
    /// proxy route's own credential and the session store's, before the persistent store's. Default `nil`.
    public var proxyCredential: Credential? {
        get { storage.proxyCredential }
        set { uniqueStorage().proxyCredential = newValue }
    }
    /// The only scheme answered to a proxy's 407 challenge (curl's `--proxy-digest`, `--proxy-ntlm`); `nil`
    /// (the default) answers the strongest scheme the proxy offers.
    public var proxyAuthenticationScheme: AuthenticationScheme? {
        get { storage.proxyAuthenticationScheme }
        set { uniqueStorage().proxyAuthenticationScheme = newValue }
    }
    /// Whether a 401 or 407 that no credential answers fails the request with
    /// ``ClientError/Code/authenticationFailed`` (ASIHTTPRequest's `ASIAuthenticationErrorType`). Off, the
    /// challenge is the request's response, as curl prints it. Default `true`.
    public var failsOnUnansweredChallenge: Bool {
        get { storage.failsOnUnansweredChallenge }
        set { uniqueStorage().failsOnUnansweredChallenge = newValue }
    }
    /// Whether a `GET` or `HEAD` with a non-empty body keeps its method (curl's `-X GET -T file`). Default
    /// `false`: such a request is sent as `POST`, as ASIHTTPRequest's `appendPostData:` did.
    public var keepsMethodWithBody: Bool {
        get { storage.keepsMethodWithBody }
        set { uniqueStorage().keepsMethodWithBody = newValue }
    }
    /// Whether every redirect keeps the request's method (curl's `-X`, which "changes the method for all requests,
    /// including redirects"). A 301, 302 or 303 that ``redirectBehavior`` would turn into `GET` then keeps the
    /// method and drops the body and its header fields; 307 and 308 keep both, as always. Default `false`.
    public var keepsMethodOnRedirect: Bool {
        get { storage.keepsMethodOnRedirect }
        set { uniqueStorage().keepsMethodOnRedirect = newValue }
    }
    /// Whether the request's own ``credential`` and `Authorization` field follow a redirect to another origin,
    /// with the scheme already negotiated sent up front there (curl's `--location-trusted`). Default `false`:
    /// they never leave the first origin.
    public var keepsCredentialsOnRedirect: Bool {
        get { storage.keepsCredentialsOnRedirect }
        set { uniqueStorage().keepsCredentialsOnRedirect = newValue }
    }
    /// Whether a request with a ``credential`` that waits for the challenge
    /// (``presentsCredentialsBeforeChallenge`` `false`) sends its first attempt with an empty body: the body goes
    /// with the answer to the 401, or with a second attempt after a 2xx answer (any other answer is the
    /// response), so it is sent once (curl's rule for `--digest` and `--ntlm`). Default `false`: the body goes
    /// every time.
    public var withholdsBodyUntilChallenged: Bool {
        get { storage.withholdsBodyUntilChallenged }
        set { uniqueStorage().withholdsBodyUntilChallenged = newValue }
    }
    /// Whether the client's cookie store is used and updated (`useCookiePersistence`). Default `true`.
    public var usesCookieStore: Bool {
        get { storage.usesCookieStore }
        set { uniqueStorage().usesCookieStore = newValue }
    }
    /// Cookies sent in addition to the stored ones, on the first hop only (`requestCookies`).
    public var requestCookies: [Cookie] {
        get { storage.requestCookies }
        set { uniqueStorage().requestCookies = newValue }
    }
    /// How the client's cache is used (ASIHTTPRequest's `cachePolicy` bitmask). Default ``CachePolicy/useDefault``
    /// (empty): the
    /// client's default (`Client.Configuration.cache.defaultPolicy`), ``CachePolicy/askServerIfModifiedWhenStale``.
    public var cachePolicy: CachePolicy {
        get { storage.cachePolicy }
        set { uniqueStorage().cachePolicy = newValue }
    }
    /// How long a response this request stores stays fresh, in seconds, overriding the server's `max-age`,
    /// `Expires` and heuristics (ASIHTTPRequest's `secondsToCache`); also applied when a `304` refreshes the
    /// entry. Default `nil`: the server's freshness. `0` or less stores an entry that is stale at once.
    public var secondsToCache: Int? {
        get { storage.secondsToCache }
        set { uniqueStorage().secondsToCache = newValue }
    }
    /// How long a response stored by this request is kept (`cacheStoragePolicy`). Default
    /// ``CacheStoragePolicy/sessionDuration``, ASIHTTPRequest's default.
    public var cacheStoragePolicy: CacheStoragePolicy {
        get { storage.cacheStoragePolicy }
        set { uniqueStorage().cacheStoragePolicy = newValue }
    }
    /// The protocol version to send (`useHTTPVersionOne` sets ``HTTPVersion/http1_0``). Default HTTP/1.1.
    public var httpVersion: HTTPVersion {
        get { storage.httpVersion }
        set { uniqueStorage().httpVersion = newValue }
    }
    /// Whether to keep the connection for later requests (`shouldAttemptPersistentConnection`);
    /// `nil` applies ASIHTTPRequest's rule (see ``Request/usesPersistentConnection``).
    public var persistentConnection: Bool? {
        get { storage.persistentConnection }
        set { uniqueStorage().persistentConnection = newValue }
    }
    /// How long an idle kept-alive connection may wait for reuse (`persistentConnectionTimeoutSeconds`).
    /// Default 60 s; a server's `Keep-Alive: timeout=` overrides it.
    public var persistentConnectionTimeout: Duration {
        get { storage.persistentConnectionTimeout }
        set { uniqueStorage().persistentConnectionTimeout = newValue }
    }
    /// TLS settings for `https` URLs.
    public var tls: TLSOptions {
        get { storage.tls }
        set { uniqueStorage().tls = newValue }
    }
    /// Receives this request's upload and download progress, in addition to the client's sink
    /// (ASIHTTPRequest's `uploadProgressDelegate` and `downloadProgressDelegate`). `nil` by default.
    ///
    /// The pipeline fills ``ProgressEvent/byteDelta`` and ``ProgressEvent/sizeIncrement`` before the event
    /// arrives; progress taken back (a body sent again after a redirect or a challenge) arrives as a negative delta.
    /// For several sinks, use ``addProgressSink(_:)`` or a ``FanOutProgressSink``; for a closure, a
    /// ``ClosureProgressSink``.
    public var progress: (any ProgressSink)? {
        get { storage.progress }
        set { uniqueStorage().progress = newValue }
    }
    /// Whether `Accept-Encoding` advertises the client's content codecs (`allowCompressedResponse`). Default
    /// `true`; it has an effect only when the client has a ``ContentCodec``.
    public var allowsCompressedResponse: Bool {
        get { storage.allowsCompressedResponse }
        set { uniqueStorage().allowsCompressedResponse = newValue }
    }
    /// Whether a compressed response is inflated only once it is complete
    /// (`shouldWaitToInflateCompressedResponses`). Default `true`: the compressed bytes are kept beside the
    /// inflated ones, and streamed chunks are handed over compressed. `false` inflates chunks as they arrive and
    /// discards the compressed bytes.
    public var inflatesWhenComplete: Bool {
        get { storage.inflatesWhenComplete }
        set { uniqueStorage().inflatesWhenComplete = newValue }
    }
    /// Whether the request body is sent gzip-compressed with `Content-Encoding: gzip` (`shouldCompressRequestBody`).
    /// Default `false`. Needs a client ``ContentCodec`` for `gzip`; use it only when the server accepts it.
    public var compressesRequestBody: Bool {
        get { storage.compressesRequestBody }
        set { uniqueStorage().compressesRequestBody = newValue }
    }
    /// Where to save the response body instead of memory (`downloadDestinationPath` and friends); `nil` keeps it in
    /// memory. Default `nil`.
    public var download: DownloadOptions? {
        get { storage.download }
        set { uniqueStorage().download = newValue }
    }
    /// This request's own bandwidth limit in bytes per second, applied together with the client's shared budget
    /// (curl's `--limit-rate`; ASIHTTPRequest had only the shared `maxBandwidthPerSecond`). Default `nil`, no
    /// limit of its own. It needs a ``BandwidthLimiter`` in the client (the `Throttle` plug-in), which enforces it.
    public var maxBandwidthPerSecond: Int? {
        get { storage.maxBandwidthPerSecond }
        set { uniqueStorage().maxBandwidthPerSecond = newValue }
    }
    /// The proxy resolver for this request, used instead of the transport's own (ASIHTTPRequest's per-request
    /// `proxyHost`, `proxyPort` and `proxyType`): for example a ``FixedProxyResolver``, or
    /// `FixedProxyResolver(.direct)` to bypass the transport's proxies. Default `nil`: the transport's resolver,
    /// if any. The transport asks it on every hop but does not run or shut it down: its owner does.
    public var proxyResolver: (any ProxyResolver)? {
        get { storage.proxyResolver }
        set { uniqueStorage().proxyResolver = newValue }
    }
    /// Whether an `http` URL through an HTTP proxy goes through a `CONNECT` tunnel too, as `https` URLs always do
    /// (curl's `--proxytunnel`). Default `false`: the proxy gets the absolute-form request.
    public var tunnelsThroughProxy: Bool {
        get { storage.tunnelsThroughProxy }
        set { uniqueStorage().tunnelsThroughProxy = newValue }
    }

    /// Creates options with ASIHTTPRequest's defaults; override any of them by name.
    /// - Parameters:
    ///   - timeout: The inactivity timeout.
    ///   - retriesOnTimeout: Retries after a timeout.
    ///   - followsRedirects: Whether redirects are followed.
    ///   - maxRedirects: The most redirects followed.
    public init(
        timeout: Duration? = .seconds(10),
        retriesOnTimeout: Int = 0,
        followsRedirects: Bool = true,
        maxRedirects: Int = 5
    ) {
        storage = Self.defaults  // most requests change no option: they all share one storage
        if timeout != .seconds(10) { self.timeout = timeout }
        if retriesOnTimeout != 0 { self.retriesOnTimeout = retriesOnTimeout }
        if !followsRedirects { self.followsRedirects = followsRedirects }
        if maxRedirects != 5 { self.maxRedirects = maxRedirects }
    }

    /// The storage of the default options, shared until a copy changes one.
    private static let defaults = Storage()
}

/// How 301 and 302 redirects treat the request method.
public enum RedirectBehavior: Sendable, Hashable {
    /// As browsers do (ASIHTTPRequest's default): 301, 302 and 303 become `GET` without a body; 307 and 308 keep
    /// method and body.
    case browser
    /// As RFC 2616 says (`shouldUseRFC2616RedirectBehaviour`): 301 and 302 keep method and body too; 303 still
    /// becomes `GET`.
    case rfc2616
}

/// An authentication scheme the pipeline can answer a challenge with.
public struct AuthenticationScheme: Sendable, Hashable, CustomStringConvertible {
    /// The scheme's name as it appears in `WWW-Authenticate`, for example `Basic`.
    public let name: String

    /// Creates a scheme by name; matching is case-insensitive.
    /// - Parameter name: The scheme's name.
    public init(_ name: String) { self.name = name }

    /// HTTP Basic (RFC 7617).
    public static let basic = AuthenticationScheme("Basic")

    /// The scheme's name.
    public var description: String { name }

    /// Compares names case-insensitively.
    public static func == (lhs: AuthenticationScheme, rhs: AuthenticationScheme) -> Bool {
        lhs.name.lowercased() == rhs.name.lowercased()
    }

    /// Hashes the lower-cased name.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(name.lowercased()) }
}

/// What a request may use the cache for.
public struct CachePolicy: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates a policy from raw bits.
    /// - Parameter rawValue: The bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Never answer from the cache (`ASIDoNotReadFromCacheCachePolicy`).
    public static let doNotReadFromCache = CachePolicy(rawValue: 1)
    /// Never store the response (`ASIDoNotWriteToCacheCachePolicy`).
    public static let doNotWriteToCache = CachePolicy(rawValue: 2)
}
