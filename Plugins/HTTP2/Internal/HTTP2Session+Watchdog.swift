import CNGHTTP2
import HTTPCore
import Logging

extension HTTP2Session {
    /// How often the watchdog looks for streams whose reader waited longer than its request's timeout.
    static let watchdogInterval = Duration.milliseconds(250)

    /// Fails (and resets) every stream whose request waits for its head, its body or room for its upload (a server
    /// that never opens the flow-control window) and saw nothing move for longer than its request's inactivity
    /// timeout, and probes an idle connection with `PING` when ``HTTP2Protocol/Configuration/pingInterval`` says so,
    /// until the connection ends. Runs beside the driver, in ``run()``'s task group: one timer per connection
    /// instead of one per request.
    func watchStreams() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.watchdogInterval)
            let now = ContinuousClock.now
            if let interval = configuration.pingInterval { probeIdleConnection(every: interval, now: now) }
            if let idleTimeout = stream.idleTimeout { closeIfIdle(for: idleTimeout, now: now) }
            let expired = locked { connection -> Bool in
                var expired = false
                for stream in connection.streams.values {
                    if stream.lowSpeed != nil,
                        let failure = stream.lowSpeed!.check(now: now, waitsOnNetwork: stream.waitsOnNetwork)
                    {
                        expired = true
                        if let session = connection.session {
                            _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.id,
                                                          NGHTTP2_CANCEL.rawValue)
                        }
                        connection.fail(stream, with: failure)
                        continue
                    }
                    guard let timeout = stream.timeout,
                        stream.waitsOnNetwork,
                        stream.lastActivity + timeout < now
                    else { continue }
                    expired = true
                    if let session = connection.session {
                        _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.id,
                                                      NGHTTP2_CANCEL.rawValue)
                    }
                    connection.fail(stream, with: ClientError(
                        .timedOut, stage: .transport,
                        message: "Nothing was received on HTTP/2 stream \(stream.id) for \(timeout)"))
                }
                return expired
            }
            if expired { stream.wakeReader() }
        }
    }

    /// Sends `PING` on a connection that has carried no stream and received nothing for `interval`, and closes one
    /// whose `PING` got no answer (nor any other frame) within another `interval`: a dead connection (a peer gone
    /// without a close, a NAT that forgot the flow) then stops taking streams instead of failing the next request.
    private func probeIdleConnection(every interval: Duration, now: ContinuousClock.Instant) {
        enum Probe { case none, ping, dead }
        let probe = locked { connection -> Probe in
            guard let session = connection.session, !connection.isClosed else { return .none }
            if let sent = connection.pingSentAt {
                if connection.lastReceived > sent {
                    connection.pingSentAt = nil
                    return .none
                }
                guard now - sent >= interval else { return .none }
                connection.isClosed = true  // never handed out again; the driver's failing read finishes it
                connection.actions.append(.capacityChanged)
                return .dead
            }
            guard connection.streams.isEmpty, connection.reserved == 0, now - connection.lastReceived >= interval
            else { return .none }
            guard nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil) == 0 else { return .none }
            connection.pingSentAt = now
            return .ping
        }
        switch probe {
        case .none: break
        case .ping: stream.wakeReader()
        case .dead:
            logger.debug("HTTP/2 connection did not answer PING; closing it")
            stream.close()
        }
    }

    /// Closes the connection once it has carried no stream for `idleTimeout` (the transport's idle lifetime for the
    /// connections it keeps, as it closes an idle pooled HTTP/1.1 one): `GOAWAY` with `NO_ERROR`, then the close
    /// once it is sent. Decided under the lock that reservations take, so no request gets a stream on it after.
    private func closeIfIdle(for idleTimeout: Duration, now: ContinuousClock.Instant) {
        enum Idle { case busy, goingAway, close }
        let idle = locked { connection -> Idle in
            guard let session = connection.session, !connection.isClosed, !connection.goingAway,
                connection.streams.isEmpty, connection.reserved == 0, now - connection.lastStreamEnded >= idleTimeout
            else { return .busy }
            connection.goingAway = true  // never handed out again
            connection.actions.append(.capacityChanged)
            // nghttp2 queues the GOAWAY; once it is written the session wants neither to read nor to write, and
            // the driver ends.
            return nghttp2_session_terminate_session(session, NGHTTP2_NO_ERROR.rawValue) == 0 ? .goingAway : .close
        }
        switch idle {
        case .busy: break
        case .goingAway:
            logger.debug("Closing an idle HTTP/2 connection", metadata: ["idle": "\(idleTimeout)"])
            stream.wakeReader()
        case .close: stream.close()
        }
    }
}
