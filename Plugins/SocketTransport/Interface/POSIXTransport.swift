public import HTTPCore

/// The default ``Transport``: HTTP/1.1 over non-blocking POSIX sockets driven by `epoll`, TLS through OpenSSL,
/// with a keep-alive connection pool.
///
/// ```swift
/// let client = Client(transport: .posix())
/// ```
///
/// ## Threads
/// A small fixed number of event-loop threads (``Configuration/loopCount``) watch every socket, so a thousand
/// open connections do not mean a thousand threads; up to two more threads run `getaddrinfo`. They start with
/// the first request and stop on ``shutdown()`` or when the last copy of the transport (and the last response
/// body still reading from a connection) is gone. Requests do their socket and TLS calls on their own task's
/// thread and hop to the loop only to wait for readiness.
///
/// ## Connections
/// Connections are pooled per scheme, host, port, ``TLSOptions`` (so a connection made without certificate
/// validation is never handed to a request that validates) and proxy route. A response ends its connection's
/// turn: it goes back to the pool when the server allows keep-alive (`Connection`, HTTP/1.0 `keep-alive`,
/// `Keep-Alive: max` above 5, as ASIHTTPRequest decided) and ``Request/usesPersistentConnection`` is true;
/// otherwise it is closed, and the request carried `Connection: close`. An idle connection expires after the
/// server's `Keep-Alive: timeout=`, else ``Configuration/idleTimeout``, else
/// ``RequestOptions/persistentConnectionTimeout``; expired connections are closed when the next request starts.
/// A request on a reused connection that the server had already closed is sent again, once, on a new connection
/// when it is idempotent.
///
/// ## Proxies
/// With a ``Configuration/proxyResolver`` the transport asks it for the request's routes (once per request) and
/// tries them in order. When a route's connection cannot be opened (the proxy's name does not resolve, the proxy
/// refuses or cannot be reached, the connect times out), nothing of the request was sent and the next route is
/// tried; when every route fails, the last route's error is thrown. Any other outcome ends the request on that
/// route: a response of any status (a proxy's `407 Proxy Authentication Required` is an ordinary response, with
/// ``Response/route`` naming the proxy so the pipeline can answer it), or an error after the request started.
///
/// An `http` URL through an ``HTTPCore/ProxyRoute/Kind/http`` proxy is sent to the proxy with an absolute-form
/// target (`GET http://example.com/path HTTP/1.1`), `Host` naming the origin, and
/// ``RequestContext/proxyAuthorization`` as `Proxy-Authorization` when it is for that proxy. An `https` URL goes
/// through a `CONNECT` tunnel: the authorization goes with `CONNECT` only, then TLS to the origin runs inside the
/// tunnel (SNI and certificate checks for the origin's name). A `407` to `CONNECT` is returned as a response, a
/// `502` goes on to the next route, and any other refusal fails the request with
/// ``ClientError/Code/connectFailed`` (a proxy's page is never taken for the origin's). When a `407` to `CONNECT`
/// offers a connection-bound scheme (NTLM, Negotiate) and the proxy keeps the connection open, the connection is
/// kept for the request that names it (``RequestContext/preferredConnectionID``), which sends its next `CONNECT` on
/// it: the handshake lives on one connection.
///
/// An ``HTTPCore/ProxyRoute/Kind/https`` proxy is spoken to the same way over TLS to the proxy: its certificate and
/// name are checked with ``Configuration/proxyTLS``, and for an `https` URL the origin's TLS session runs inside
/// the proxy's (TLS inside TLS, each session checking its own peer).
///
/// Through a ``HTTPCore/ProxyRoute/Kind/socks5`` proxy (RFC 1928, no authentication or RFC 1929 user name and
/// password from the route's credential) or a ``HTTPCore/ProxyRoute/Kind/socks4a`` one (SOCKS4a, or SOCKS4 when the
/// route resolves names locally), the proxy is asked for a connection to the origin, by name when
/// ``HTTPCore/ProxyRoute/resolvesNamesRemotely`` (curl's `socks5h`), else by the address resolved here (honouring
/// ``Configuration/addressOverrides``); then the request goes as on a direct connection, TLS included. A failure
/// reply is a ``SOCKSError`` in the error's `underlying`: an unreachable origin goes on to the next route as a `502`
/// does, a refusal by rule ends the request, a rejected password is ``ClientError/Code/authenticationFailed`` and
/// bytes that are not SOCKS are ``ClientError/Code/protocolViolation``. The handshake's reads never take more
/// than the reply and end at the connect timeout.
///
/// On every route except the absolute form to an HTTP or HTTPS proxy, a `Proxy-Authorization` field the caller set
/// is dropped: it never reaches an origin or goes down a tunnel. Connections (tunnels too) are pooled per route
/// (kind, proxy host and port, credential) and origin. A proxy whose route failed over is parked for
/// ``Configuration/proxyParkingDuration``: later requests try the other routes first and it last.
///
/// The transport owns its resolver: ``run()`` runs the resolver's background work and ``shutdown()`` shuts it
/// down.
///
/// ## Signals
/// Writes use `MSG_NOSIGNAL` (TLS through a socket BIO that does the same), so a closed peer never raises
/// `SIGPIPE` and the process's signal handling is left alone.
public struct POSIXTransport: Transport {
    /// The transport's settings.
    public let configuration: Configuration
    let core: TransportCore

    /// Creates a transport; no thread starts until the first request (or until ``taskExecutor`` is read).
    /// - Parameter configuration: The settings; the defaults suit most clients.
    public init(configuration: Configuration = Configuration()) {
        precondition(configuration.loopCount >= 1, "POSIXTransport needs at least one event loop")
        precondition(configuration.maxConnectionsPerHost >= 1, "maxConnectionsPerHost must be at least 1")
        self.configuration = configuration
        core = TransportCore(configuration: configuration)
    }

    /// Sends a request and returns once the response head has arrived; the body streams from the connection.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Progress sink, bandwidth limiter, logger and the proxy authorization, if any.
    /// - Returns: The response.
    /// - Throws: ``ClientError`` (`invalidRequest`, `nameResolutionFailed`, `connectFailed`, `timedOut`,
    ///   `emptyResponse`, `sendFailed`, `receiveFailed`, `tlsHandshakeFailed`, `certificateInvalid`,
    ///   `protocolViolation`, `incompleteBody`, `storageFailed`, `invalidConfiguration`, `authenticationFailed`
    ///   from a SOCKS proxy) or `CancellationError`.
    public func send(_ request: Request, context: RequestContext) async throws -> Response {
        try await core.send(request, context: context)
    }

    /// An executor that runs jobs on the transport's first event-loop thread, for callers that make many
    /// requests and want each wait for a socket to cost one context switch instead of two.
    ///
    /// ```swift
    /// let transport = POSIXTransport()
    /// let client = Client(transport: transport)
    /// try await withTaskExecutorPreference(transport.taskExecutor) {
    ///     for url in urls { _ = try await client.send(Request(url: url)) }
    /// }
    /// ```
    ///
    /// Without it (and while ``preferredTaskExecutor`` offers nothing), the loop thread resumes a waiting task by
    /// handing it to the global concurrent executor, which wakes one of its threads. With it, the task runs on the
    /// loop thread itself, right after the readiness edge.
    ///
    /// The trade-off: everything the task does between waits runs on the loop thread, and while it runs the loop
    /// watches no socket and fires no timer. Keep the scope to request work: TLS handshakes, decoding, writing
    /// downloads to disk and your own code in that scope all delay the loop's other connections and timeouts.
    /// Never block in it (semaphores, the blocking `Client` API, long synchronous work): the loop that would
    /// wake you is the thread you block. The gain is largest with one loop (``Configuration/loopCount`` 1, the
    /// default), because then every connection is watched by the loop the task runs on.
    ///
    /// Reading it starts the loop threads. After ``shutdown()`` jobs run on the global concurrent executor.
    public var taskExecutor: any TaskExecutor {
        core.loops.executorLoop() ?? globalConcurrentExecutor
    }

    /// The first event loop while another request of this transport waits for its response head, on which
    /// `Client` then runs the new request (`Client.Configuration.runsOnTransportExecutor`); `nil` while none does,
    /// and once the transport is shut down.
    ///
    /// A busy loop is awake anyway, so a request that joins it has its waits resumed right there, with no hop to
    /// another thread (16 concurrent requests: 1.4 times the requests per second of the global executor). An idle
    /// loop sleeps in `epoll_wait`, and moving a lone request onto it costs one more wake-up than it saves (a
    /// sequential request would pay three context switches instead of two), so a lone request stays on the
    /// caller's executor (decision 0022).
    ///
    /// With ``Configuration/loopCount`` above 1 it is always `nil`: more loops are asked for to spread work over
    /// cores, and funnelling every overlapping request into the first loop would undo that.
    public var preferredTaskExecutor: (any TaskExecutor)? {
        guard configuration.loopCount == 1, core.hasRequestsAwaitingHeads else { return nil }
        return core.loops.executorLoop()
    }

    /// The executor through which requests that ran on ``preferredTaskExecutor`` go back to their callers: the loop
    /// collects the callers whose requests ended in one round and hands them to the global concurrent executor
    /// together, waking one cooperative thread per round instead of one per request (a thread that, on the loop's
    /// CPU, would take it over at once, run one caller and sleep again). `nil` whenever ``preferredTaskExecutor`` is
    /// always `nil` (``Configuration/loopCount`` above 1, or after ``shutdown()``).
    ///
    /// The callers of one round run on cooperative threads as the global executor would run them: while some wait
    /// behind the one running, a second thread helps (up to the pool's width), so a slow caller holds up no other.
    public var handOffTaskExecutor: (any TaskExecutor)? {
        guard configuration.loopCount == 1 else { return nil }
        return core.loops.executorHandOff()
    }

    /// The first event loop, whether or not a request is in flight, for tasks that keep it busy (a `RequestQueue`'s
    /// workers): their requests then run where their sockets are watched, with no hop to the loop and back per
    /// request. `nil` when ``preferredTaskExecutor`` is always `nil` (``Configuration/loopCount`` above 1, or after
    /// ``shutdown()``).
    public var workerTaskExecutor: (any TaskExecutor)? {
        guard configuration.loopCount == 1 else { return nil }
        return core.loops.executorLoop()
    }

    /// Runs the proxy resolver's background work (a PAC file's refresh), if a resolver is configured; returns at
    /// once otherwise. The transport's own threads need no `run()`.
    /// - Throws: What the resolver's `run()` throws.
    public func run() async throws {
        try await configuration.proxyResolver?.run()
    }

    /// Closes idle connections, fails requests still waiting, stops the transport's threads, and shuts the proxy
    /// resolver down. Idempotent; requests sent afterwards fail with ``ClientError/Code/connectFailed``.
    /// - Throws: What the resolver's `shutdown()` throws.
    public func shutdown() async throws {
        core.shutDown()
        try await configuration.proxyResolver?.shutdown()
    }
}

extension Transport where Self == POSIXTransport {
    /// The POSIX sockets transport.
    /// - Parameter configuration: Its settings.
    /// - Returns: A new transport with its own threads and connection pool.
    public static func posix(_ configuration: POSIXTransport.Configuration = .init()) -> POSIXTransport {
        POSIXTransport(configuration: configuration)
    }
}
