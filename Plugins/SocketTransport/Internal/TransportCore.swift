import HTTPCore
import Logging
import Synchronization

/// The shared state behind every copy of a ``POSIXTransport``: event loops, resolver, TLS contexts and the pool.
///
/// It lives as long as a transport value or a response body that still reads from a connection refers to it;
/// when the last reference goes, the loops and resolver threads stop and idle connections close.
final class TransportCore: Sendable {
    let configuration: POSIXTransport.Configuration
    let loops: EventLoopGroup
    let resolver = NameResolver()
    let tlsContexts = TLSContextCache()
    /// The last URL sent and its target, taken apart once.
    let targets = RequestTargetCache()
    let pool: ConnectionPool
    let parking: ProxyParking
    /// The multiplexed protocols' sessions by origin; `nil` when none is configured (no cost on the HTTP/1.1 path).
    let multiplexing: MultiplexedSessions?
    /// What TLS to an origin offers by ALPN.
    let originALPN: ALPNOffer
    private let isShutDown = Atomic<Bool>(false)
    /// Requests inside ``send(_:context:)``: sent or about to be, their response head not yet read (not counting
    /// those waiting on a multiplexed session, whose heads the session's driver reads).
    let requestsAwaitingHeads = Atomic<Int>(0)

    /// Whether a request is inside ``send(_:context:)`` now (so the event loop is awake for it).
    var hasRequestsAwaitingHeads: Bool { requestsAwaitingHeads.load(ordering: .relaxed) > 0 }

    init(configuration: POSIXTransport.Configuration) {
        self.configuration = configuration
        loops = EventLoopGroup(
            count: configuration.loopCount, busyPoll: NanoTime.nanoseconds(configuration.busyPoll))
        pool = ConnectionPool(maxPerHost: configuration.maxConnectionsPerHost)
        parking = ProxyParking(duration: NanoTime.nanoseconds(configuration.proxyParkingDuration))
        let protocols = configuration.protocols
        multiplexing = protocols.isEmpty ? nil : MultiplexedSessions(protocols: protocols)
        originALPN = ALPNOffer(protocols.map(\.alpnIdentifier) + [HTTP1Protocol().alpnIdentifier])
    }

    deinit {
        shutDown()
    }

    var connector: Connector {
        Connector(loops: loops, resolver: resolver, tlsContexts: tlsContexts,
                  addressOverrides: configuration.addressOverrides, proxyTLS: configuration.proxyTLS,
                  responseLimits: configuration.responseLimits, pinnedPublicKeys: configuration.pinnedPublicKeys,
                  attemptDelay: configuration.happyEyeballsDelay, originALPN: originALPN)
    }

    /// Closes idle connections, fails waiters and in-flight waits, and stops the threads. Idempotent.
    func shutDown() {
        guard !isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        multiplexing?.shutDown()
        pool.shutDown()
        resolver.shutDown()
        loops.shutDown()
        tlsContexts.removeAll()
    }

    /// Sends one request: directly when neither the request nor the transport has a proxy resolver (without
    /// asking anything), otherwise over the resolver's routes in order (see ``sendRouted(_:resolver:context:)``).
    func send(_ request: Request, context: RequestContext) async throws -> Response {
        try Task.checkCancellation()
        requestsAwaitingHeads.add(1, ordering: .relaxed)
        defer { requestsAwaitingHeads.subtract(1, ordering: .relaxed) }
        // A request's own resolver (RequestOptions.proxyResolver, ASI's per-request proxy) replaces the transport's.
        guard let resolver = request.options.proxyResolver ?? configuration.proxyResolver else {
            let plan = try ExchangePlan(
                request: request, target: try targets.target(for: request.url), idleTimeout: configuration.idleTimeout)
            return try await send(plan, context: context, failsOver: false)
        }
        return try await sendRouted(request, resolver: resolver, context: context)
    }

    /// Sends one request over one route, retrying once on a new connection when a reused one turns out to be
    /// closed and the request is idempotent. A `407` answer to a tunnel's `CONNECT` is returned as the response.
    /// - Parameters:
    ///   - plan: The exchange, planned for its route.
    ///   - context: The request's context.
    ///   - failsOver: Whether a failure to open the connection (before any byte of the request was sent, or a
    ///     `502` answer to `CONNECT`) is thrown as ``RouteUnreachable``, so the caller can go on with the next
    ///     route.
    ///   - multiplexes: Whether a configured multiplexed protocol may carry the request (`false` once the origin is
    ///     known to answer HTTP/1.1 only).
    /// - Returns: The response.
    /// - Throws: ``ClientError``, ``RouteUnreachable`` (only when `failsOver`) or `CancellationError`.
    func send(
        _ plan: ExchangePlan, context: RequestContext, failsOver: Bool, multiplexes: Bool = true
    ) async throws -> Response {
        if multiplexes, let multiplexing {
            return try await sendMultiplexed(plan, sessions: multiplexing, context: context, failsOver: failsOver)
        }
        var forceNew = false
        while true {
            let connection: Connection
            let reused: Bool
            do {
                (connection, reused) = try await checkOut(
                    plan, forceNew: forceNew, preferred: context.preferredConnectionID, logger: context.logger)
            } catch {
                return try Self.answer(toCheckOutFailure: error, failsOver: failsOver)
            }
            // A connection-bound handshake (NTLM) authenticates this connection as its user: no other request
            // may take it from the pool afterwards, nor between the challenge and the answer.
            if context.preferredConnectionID != nil { connection.isBound = true }
            do {
                return try await HTTP1Exchange(core: self, plan: plan, connection: connection, context: context).run()
            } catch {
                try retryOnNewConnection(after: error, on: connection, reused: reused, forceNew: forceNew, plan: plan,
                                         logger: context.logger)
                forceNew = true
            }
        }
    }

    // The two failure steps of `send(_:context:failsOver:multiplexes:)` are synchronous and out of line: their
    // patterns and log lines (a proxy's whole response among them) would otherwise be slots of the async frame every
    // request allocates, and a task keeps the slabs of its largest frames until it ends (decision 0038's addendum).

    /// What a failed check-out becomes: the proxy's `407` answer to `CONNECT` is the response; a refused tunnel, and
    /// with `failsOver` a route that cannot be reached, are thrown as the caller expects them.
    /// - Returns: The proxy's challenge.
    /// - Throws: Everything else, mapped as described.
    @inline(never)
    private static func answer(toCheckOutFailure error: any Error, failsOver: Bool) throws -> Response {
        switch error {
        case ProxyTunnel.Answer.challenged(let response, _):
            return response
        case ProxyTunnel.Answer.refused(let error):
            throw error
        case let failure as RouteUnreachable:
            throw failsOver ? failure : failure.error
        case let error as ClientError where failsOver && RouteUnreachable.isUnreachable(error):
            throw RouteUnreachable(error: error)
        default:
            throw error
        }
    }

    /// Closes the connection an exchange failed on, and returns when the request may be sent again on a new one: the
    /// reused connection was closed by the server before any byte of the answer, on the first try, and the request
    /// is idempotent.
    /// - Throws: `error` when the request may not be sent again.
    @inline(never)
    private func retryOnNewConnection(
        after error: any Error, on connection: Connection, reused: Bool, forceNew: Bool, plan: ExchangePlan,
        logger: Logger
    ) throws {
        let stale = reused && !connection.parser.receivedResponseBytes
            && (error as? ClientError)?.isConnectionLost == true
        checkIn(connection, reuse: false, reason: stale ? "closed by the server" : "failed", logger: logger)
        guard stale && !forceNew && plan.request.isIdempotent else { throw error }
        logger.debug("Reused connection was closed by the server; retrying on a new connection",
                     metadata: ["connection": "\(connection.id)"])
    }

    /// Returns a connection to the pool or closes it.
    func checkIn(_ connection: Connection, reuse: Bool, reason: @autoclosure () -> String, logger: Logger) {
        if reuse {
            logger.trace("Connection idle in the pool", metadata: ["connection": "\(connection.id)"])
        } else {
            logger.debug("Closing connection", metadata: ["connection": "\(connection.id)", "reason": "\(reason())"])
        }
        pool.checkIn(connection, reuse: reuse)
    }

    func checkOut(
        _ plan: ExchangePlan, forceNew: Bool, preferred: UInt64? = nil, logger: Logger
    ) async throws -> (Connection, reused: Bool) {
        switch try await pool.checkOut(plan.key, forceNew: forceNew, preferred: preferred, logger: logger) {
        case .reuse(let connection):
            // A request that cannot be sent again (a POST) asks the socket itself before it goes out: the event loop
            // may not have seen the server's close of an idle connection yet, and such a request would be lost on
            // it. Idempotent requests skip the system call; a stale connection is retried for them.
            if !plan.request.isIdempotent && !Socket.isQuiet(connection.fd) || connection.awaitsTunnel {
                return try await reopening(connection, plan: plan, forceNew: forceNew, logger: logger)
            }
            logReuse(connection, plan: plan, logger: logger)
            return (connection, true)
        case .create:
            return (try await opened(plan, logger: logger), false)
        }
    }

    // The steps below run only for some check-outs (a new connection, a stale one, a tunnel to set up again) and
    // are kept out of `checkOut` (`@inline(never)`), so their closures and locals do not widen the async frame that
    // every reused connection's request allocates.

    /// A reused connection that cannot be used as it is: closed by the server (for a request that cannot be sent
    /// again), or a proxy connection whose tunnel is sent `CONNECT` again.
    @inline(never)
    private func reopening(
        _ connection: Connection, plan: ExchangePlan, forceNew: Bool, logger: Logger
    ) async throws -> (Connection, reused: Bool) {
        if !plan.request.isIdempotent && !Socket.isQuiet(connection.fd) {
            checkIn(connection, reuse: false, reason: "closed by the server", logger: logger)
            return try await checkOut(plan, forceNew: forceNew, logger: logger)
        }
        logger.trace("Sending CONNECT again on the proxy connection", metadata: ["connection": "\(connection.id)"])
        try await finishOpening(connection, plan: plan, logger: logger) {
            try await connector.finishOpening(connection, options: plan.request.options,
                                              proxyAuthorization: plan.tunnelAuthorization)
        }
        return (connection, false)
    }

    /// Opens a new connection for the plan (the pool gave its slot).
    @inline(never)
    private func opened(_ plan: ExchangePlan, logger: Logger) async throws -> Connection {
        var opened: Connection?
        try await finishOpening(opened, plan: plan, logger: logger) {
            opened = try await connector.connect(plan.key, options: plan.request.options,
                                                 proxyAuthorization: plan.tunnelAuthorization)
        }
        guard let opened else { preconditionFailure("finishOpening returns only after opening") }
        logOpened(opened, plan: plan, logger: logger)
        return opened
    }

    /// The debug line of a new connection; synchronous and out of line, so its metadata stays out of the frame.
    @inline(never)
    private func logOpened(_ connection: Connection, plan: ExchangePlan, logger: Logger) {
        logger.debug("Opened connection", metadata: ["connection": "\(connection.id)", "peer": "\(plan.key)"])
    }

    /// The trace line of a reused connection; synchronous and out of line, so its metadata stays out of the frame.
    @inline(never)
    private func logReuse(_ connection: Connection, plan: ExchangePlan, logger: Logger) {
        logger.trace("Reusing connection", metadata: ["connection": "\(connection.id)", "peer": "\(plan.key)"])
    }

    /// Runs `open`, which opens a connection or sends `CONNECT` again on one: when it fails, the slot of the
    /// connection is freed, except for a `407` whose connection stays open for the next step of a
    /// connection-bound handshake, which goes back to the pool as a bound connection, kept for the request that
    /// names it.
    private func finishOpening(
        _ connection: Connection?, plan: ExchangePlan, logger: Logger, _ open: () async throws -> Void
    ) async throws {
        do {
            try await open()
        } catch ProxyTunnel.Answer.challenged(let response, let kept?) {
            kept.isBound = true
            kept.idleDeadline = NanoTime.deadline(after: plan.idleTimeout)
            logger.debug("Proxy connection kept for the next CONNECT of the handshake",
                         metadata: ["connection": "\(kept.id)"])
            pool.checkIn(kept, reuse: true)
            throw ProxyTunnel.Answer.challenged(response, keeping: nil)
        } catch {
            if let connection {
                pool.checkIn(connection, reuse: false)  // closed already; frees its slot
            } else {
                pool.releaseSlot(plan.key)
            }
            throw error
        }
    }
}
