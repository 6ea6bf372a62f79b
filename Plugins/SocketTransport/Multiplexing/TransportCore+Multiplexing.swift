import HTTPCore
import Logging
import Synchronization

extension TransportCore {
    /// How many times a request the server did not process (a `GOAWAY` above it) is sent again.
    private static let unprocessedRetries = 3

    /// Sends one request over a configured multiplexed protocol when the origin speaks it, else over HTTP/1.1.
    ///
    /// The first request for an origin opens its connection while the others wait; when TLS chose the protocol by
    /// ALPN (or a cleartext origin is spoken to with prior knowledge) the connection becomes a session that every
    /// request for the origin shares; when it chose HTTP/1.1 the connection goes to the pool and the origin's
    /// requests use the pool from then on. A request with ``RequestContext/preferredConnectionID`` (an NTLM
    /// handshake, bound to one connection) goes over HTTP/1.1 on a connection that offered only `http/1.1`.
    func sendMultiplexed(
        _ plan: ExchangePlan, sessions: MultiplexedSessions, context: RequestContext, failsOver: Bool
    ) async throws -> Response {
        var plan = plan
        if context.preferredConnectionID != nil { plan.key.offersOnlyHTTP1 = true }
        guard sessions.candidate(for: plan.key) != nil else {
            return try await send(plan, context: context, failsOver: failsOver, multiplexes: false)
        }
        var request = plan.request
        // Never toward an origin: a tunnel's authorization went with CONNECT. (Looked up first: removing a field
        // that is not there would still copy the fields.)
        if request.headerFields[.proxyAuthorization] != nil { request.headerFields[.proxyAuthorization] = nil }
        var unprocessed = 0
        // The session this request's own connection became: its first stream is this request's, so connections
        // opened side by side (`waitsForMultiplexing` off) each carry their opener's request.
        var ownSession: (any ProtocolSession)?
        while true {
            let step: MultiplexedSessions.Step
            if let session = ownSession, session.reserveStream() {
                step = .send(session)
            } else {
                step = try await sessions.next(
                    for: plan.key, maxConnections: configuration.maxConnectionsPerHost,
                    waits: configuration.waitsForMultiplexing)
            }
            ownSession = nil
            switch step {
            case .http1:
                return try await send(plan, context: context, failsOver: failsOver, multiplexes: false)
            case .send(let session):
                // Not a request the event loop wakes for its head (decision 0022's reason to join the loop): the
                // session's driver reads every stream's frames, and the requests' own work belongs on other threads.
                requestsAwaitingHeads.subtract(1, ordering: .relaxed)
                defer { requestsAwaitingHeads.add(1, ordering: .relaxed) }
                do {
                    return try await session.send(request, route: plan.key.route, context: context)
                } catch let notProcessed as RequestNotProcessed {
                    unprocessed += 1
                    guard unprocessed <= Self.unprocessedRetries else { throw notProcessed.error }
                    guard request.body?.isReplayable ?? true else {
                        // Say why a request any other body would have survived fails: the caller can fix it.
                        var error = notProcessed.error
                        error.message += "; its body is a one-time stream and cannot be sent again"
                        throw error
                    }
                    context.logger.debug("The server did not process the request; sending it on another stream")
                }
            case .open:
                switch try await open(plan, sessions: sessions, context: context, failsOver: failsOver) {
                case .answered(let response): return response
                case .session(let session): ownSession = session
                }
            }
        }
    }

    /// What opening a connection for a multiplexed origin gave.
    private enum Opened {
        /// A response: a proxy's `407` to `CONNECT`, or the request's own over HTTP/1.1 when the origin chose that.
        case answered(Response)
        /// The connection became this session; the caller takes a stream on it.
        case session(any ProtocolSession)
    }

    /// Opens a connection for the origin of `plan` as its opener.
    private func open(
        _ plan: ExchangePlan, sessions: MultiplexedSessions, context: RequestContext, failsOver: Bool
    ) async throws -> Opened {
        let connection: Connection
        do {
            (connection, _) = try await checkOut(plan, forceNew: true, logger: context.logger)
        } catch {
            sessions.openFailed(plan.key)
            switch error {
            case ProxyTunnel.Answer.challenged(let response, _): return .answered(response)
            case ProxyTunnel.Answer.refused(let refusal): throw refusal
            case let failure as RouteUnreachable: throw failsOver ? failure : failure.error
            case let failure as ClientError where failsOver && RouteUnreachable.isUnreachable(failure):
                throw RouteUnreachable(error: failure)
            default: throw error
            }
        }
        let spoken: (any MultiplexedProtocol)?
        if plan.key.tls != nil {
            spoken = sessions.negotiated(connection.negotiatedProtocol)
        } else {
            spoken = sessions.candidate(for: plan.key)
        }
        guard let spoken else {
            // The origin chose HTTP/1.1: the connection joins the pool, where this request picks it up.
            sessions.answeredHTTP1(plan.key)
            connection.idleDeadline = NanoTime.deadline(after: plan.idleTimeout)
            pool.checkIn(connection, reuse: true)
            return .answered(try await send(plan, context: context, failsOver: failsOver, multiplexes: false))
        }
        let stream = SocketConnectionStream(
            connection: connection,
            idleTimeout: configuration.idleTimeout ?? plan.request.options.persistentConnectionTimeout)
        let session: any ProtocolSession
        do {
            session = try spoken.openSession(over: stream, logger: context.logger)
        } catch {
            sessions.openFailed(plan.key)
            checkIn(connection, reuse: false, reason: "the protocol could not start", logger: context.logger)
            throw error
        }
        let key = plan.key
        session.setCapacityHandler { [weak sessions] in sessions?.capacityChanged(key) }
        context.logger.debug("Speaking \(spoken.alpnIdentifier) on the connection",
                             metadata: ["connection": "\(connection.id)", "peer": "\(key)"])
        sessions.opened(key, session: session)
        drive(session, on: connection, key: key, sessions: sessions, logger: context.logger)
        return .session(session)
    }

    /// Runs the session's connection driver until the connection ends, then closes the socket and frees its
    /// slot in the pool. The one task the transport starts (decision 0031): the reader of a connection that many
    /// requests share belongs to none of them.
    private func drive(
        _ session: any ProtocolSession, on connection: Connection, key: PoolKey, sessions: MultiplexedSessions,
        logger: Logger
    ) {
        let pool = self.pool
        let driver: @Sendable () async -> Void = {
            await session.run()
            sessions.remove(key, session: session)
            logger.debug("Multiplexed connection ended", metadata: ["connection": "\(connection.id)"])
            pool.checkIn(connection, reuse: false)
        }
        if let loop = loops.executorLoop() {
            Task(executorPreference: loop, operation: driver)
        } else {
            Task(operation: driver)
        }
    }
}
