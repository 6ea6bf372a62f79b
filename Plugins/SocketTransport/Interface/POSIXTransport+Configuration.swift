public import HTTPCore

extension POSIXTransport {
    /// Settings for a ``POSIXTransport``.
    public struct Configuration: Sendable {
        /// How many event-loop threads watch the sockets. Default 1: the loop only dispatches readiness (the I/O
        /// runs on the requesting tasks), so one thread serves thousands of connections.
        public var loopCount: Int
        /// The most connections open at once to one scheme, host, port and TLS options (and route, through a
        /// proxy); further requests wait for one to come free. Default 8. (ASIHTTPRequest had no limit; a cap
        /// protects servers and sockets. Note that a response body you do not read or discard keeps its
        /// connection busy.)
        public var maxConnectionsPerHost: Int
        /// How long an idle connection stays in the pool, overriding
        /// ``RequestOptions/persistentConnectionTimeout`` when set. A server's `Keep-Alive: timeout=` wins over
        /// both. A multiplexed connection (HTTP/2) that carried no stream for as long is closed too (`GOAWAY`, then
        /// the close; the opening request's option applies when this is `nil`). Default `nil`.
        public var idleTimeout: Duration?
        /// Chooses the routes (direct or through proxies) for each request. Default `nil`: every request goes
        /// directly to the origin, and no resolver is asked.
        ///
        /// The transport asks it once per request and tries its routes in order, going on to the next route
        /// when a connection cannot be opened (see ``POSIXTransport``, "Proxies"). It speaks HTTP and HTTPS proxies
        /// (absolute-form requests for `http` URLs, `CONNECT` tunnels for `https` URLs), SOCKS5 and SOCKS4/4a.
        public var proxyResolver: (any ProxyResolver)?
        /// The TLS settings for the connection to an HTTPS proxy (a ``HTTPCore/ProxyRoute/Kind/https`` route): the
        /// proxy's own certificate and name are checked against the system store or ``TLSOptions/trustedCAFile``
        /// (curl's `--proxy-cacert`), or not at all when ``TLSOptions/validatesCertificate`` is `false` (curl's
        /// `--proxy-insecure`), and ``TLSOptions/clientIdentity`` is presented to the proxy. They apply to the proxy
        /// only: TLS to an origin inside a tunnel uses the request's ``RequestOptions/tls``. Default: validate
        /// against the system store.
        public var proxyTLS: TLSOptions
        /// How long a proxy that could not be reached (refused, unreachable, connect timeout, a `502` to `CONNECT`,
        /// a SOCKS proxy that could not reach the origin) is parked: later requests try the resolver's other routes
        /// first and this proxy only after them. Default 30 seconds; zero parks nothing.
        public var proxyParkingDuration: Duration
        /// Addresses to use instead of asking the resolver, by `host:port` (curl's `--resolve`): the key is a
        /// lower-cased host name and a port, for example `example.org:8080`, the value an IPv4 or IPv6 literal.
        /// The request keeps its URL, `Host` field and TLS server name. Default empty.
        public var addressOverrides: [String: String]
        /// The size limits of every response head, line, trailer section and run of interim (1xx) responses,
        /// from origins and from proxies answering `CONNECT`. Default ``HTTP1Limits``'s defaults: 64 KiB per head,
        /// 100 fields, 16 KiB per line, 100 interim responses. Raise them for a server that sends larger heads;
        /// breaking one fails the request with ``HTTPCore/ClientError/Code/protocolViolation``.
        public var responseLimits: HTTP1Limits
        /// Public-key pins by host name, checked on every TLS connection to that host (the origin's, or an HTTPS
        /// proxy's), in addition to the chain and name checks and to the request's own
        /// ``HTTPCore/TLSOptions/pinnedPublicKeys`` (both must match when both are set). Keys are host names or IP
        /// literals, compared case-insensitively and without a trailing dot, for example `api.example.org`. A
        /// server whose key matches none fails with ``HTTPCore/ClientError/Code/publicKeyPinMismatch`` before any
        /// request byte is sent. Default empty.
        public var pinnedPublicKeys: [String: PublicKeyPins]
        /// How long a connect attempt runs before the next address is tried beside it (Happy Eyeballs v2, RFC 8305
        /// §5's "Connection Attempt Delay"; curl's `--happy-eyeballs-timeout-ms`). The resolver's addresses are
        /// tried IPv6 and IPv4 alternately, IPv6 first; the first connection wins and the other attempts are
        /// closed, so an address that silently drops packets costs this delay, not the connect timeout. A failed
        /// attempt starts the next one at once. Default 250 ms (RFC 8305's recommendation); zero starts every
        /// address at once.
        public var happyEyeballsDelay: Duration
        /// Multiplexed protocols to speak besides HTTP/1.1, most preferred first: for example the `HTTP2` plug-in's
        /// `HTTP2Protocol`. TLS to an origin offers their ALPN ids before `http/1.1` (`h2,http/1.1`), and an origin
        /// that chooses one gets one connection carrying many requests at once (decision 0031). Default empty:
        /// TLS offers `http/1.1` alone and every request goes over HTTP/1.1, as before.
        public var protocols: [any MultiplexedProtocol]
        /// Whether a request for an origin that may speak a multiplexed protocol waits for the connection another
        /// request is opening to it, to share it, instead of opening its own (libcurl's `CURLOPT_PIPEWAIT`, which
        /// curl's `-Z` sets). Default `true`: requests started together share one connection. `false` (curl's and
        /// `asi`'s `--parallel-immediate`) opens a connection for each request that finds no session with room, up
        /// to ``maxConnectionsPerHost``; later requests still take streams on the sessions those connections made.
        public var waitsForMultiplexing: Bool
        /// The longest an event loop polls its sockets before it sleeps, once it has nothing to do (Linux's
        /// `net.core.busy_poll` and `haltpoll`, for the loop thread). Default zero: the loop sleeps at once.
        /// 200 µs is `haltpoll`'s own limit.
        ///
        /// Each sleep and wake-up of the loop costs two context switches, and an idle CPU's halt and wake-up on a
        /// virtual machine. When a server on the same machine or network answers within microseconds, polling is
        /// cheaper. The loop polls only while at most one task waits on its sockets (a lone request: with more,
        /// sleeping lets several answers arrive per wake-up), and adapts how long it polls to what it saw, as
        /// `haltpoll` does (decision 0037): it polls only after idle periods shorter than this, stops after idle
        /// periods longer than it, and stops when a yield shows that other threads want the CPU. A client whose
        /// answers take milliseconds, or that runs on a busy CPU, spends nothing on it. While it polls, the loop
        /// thread yields its CPU between polls, so other threads run. It is off by default because on an
        /// oversubscribed CPU a polling loop that yields gets its CPU back later than a sleeping one is woken, which
        /// measured slower there (decision 0037).
        public var busyPoll: Duration

        /// Creates a configuration.
        /// - Parameters:
        ///   - loopCount: Event-loop threads, at least 1.
        ///   - maxConnectionsPerHost: The per-host connection limit, at least 1.
        ///   - idleTimeout: The idle lifetime of pooled connections, or `nil` to use the request's option.
        ///   - proxyResolver: The proxy resolver, or `nil` to connect directly.
        ///   - addressOverrides: Addresses by `host:port` to use instead of resolving the host.
        ///   - proxyTLS: The TLS settings for connections to HTTPS proxies.
        ///   - proxyParkingDuration: How long an unreachable proxy goes to the end of the route list.
        ///   - responseLimits: The size limits of response heads.
        ///   - pinnedPublicKeys: Public-key pins by host name.
        ///   - happyEyeballsDelay: How long a connect attempt runs before the next address is tried beside it.
        ///   - protocols: Multiplexed protocols to offer by ALPN before HTTP/1.1.
        ///   - waitsForMultiplexing: Whether requests wait for a connection being opened to their origin.
        ///   - busyPoll: The longest an event loop polls before it sleeps.
        public init(
            loopCount: Int = 1,
            maxConnectionsPerHost: Int = 8,
            idleTimeout: Duration? = nil,
            proxyResolver: (any ProxyResolver)? = nil,
            addressOverrides: [String: String] = [:],
            proxyTLS: TLSOptions = TLSOptions(),
            proxyParkingDuration: Duration = .seconds(30),
            responseLimits: HTTP1Limits = HTTP1Limits(),
            pinnedPublicKeys: [String: PublicKeyPins] = [:],
            happyEyeballsDelay: Duration = .milliseconds(250),
            protocols: [any MultiplexedProtocol] = [],
            waitsForMultiplexing: Bool = true,
            busyPoll: Duration = .zero
        ) {
            self.loopCount = loopCount
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.idleTimeout = idleTimeout
            self.proxyResolver = proxyResolver
            self.addressOverrides = addressOverrides
            self.proxyTLS = proxyTLS
            self.proxyParkingDuration = proxyParkingDuration
            self.responseLimits = responseLimits
            self.pinnedPublicKeys = pinnedPublicKeys
            self.happyEyeballsDelay = happyEyeballsDelay
            self.protocols = protocols
            self.waitsForMultiplexing = waitsForMultiplexing
            self.busyPoll = busyPoll
        }
    }
}
