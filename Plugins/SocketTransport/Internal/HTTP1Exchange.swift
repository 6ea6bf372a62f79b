import HTTPCore
import Logging

/// One request and response head on one connection.
///
/// Writes the request, reads until the final head (1xx interim heads are skipped) and returns the response.
/// When the whole body came with the head (the usual case for small responses) the connection goes back to the
/// pool before the caller sees the response; otherwise the body source takes the connection over. Until
/// ``run()`` returns, the caller owns the connection and closes it on a throw.
struct HTTP1Exchange {
    let core: TransportCore
    let plan: ExchangePlan
    let connection: Connection
    let context: RequestContext

    /// Sends the request and reads the response head.
    /// - Returns: The response; its body streams from the connection.
    /// - Throws: ``ClientError`` or `CancellationError`; the connection is then the caller's to close.
    func run() async throws -> Response {
        let meter = begin()
        // A server may answer before the body is sent (413, 401, 417) and close; the write then fails but the
        // answer can still be read. The connection is not reused after an incomplete request.
        var writeError: ClientError?
        do {
            try await RequestWriter.write(plan, on: connection, context: context)
        } catch let error as ClientError where error.isConnectionLost {
            writeError = error
        }

        var reading = HeadReading()
        while reading.head == nil {
            do {
                try await connection.readAndParse(metering: meter)
            } catch let error as ClientError where error.isConnectionLost {
                // A reset seen while reading is reported as such (curl's 56), even when the send saw the break
                // first; a close without an answer after a failed send is the send's failure.
                throw error.code == .receiveFailed ? error : writeError ?? error
            }
            collectEvents(into: &reading)
        }
        return response(reading, reusable: writeError == nil)
    }

    // The steps below are synchronous and never inlined: their temporaries (the plan's fields, each parser event
    // and head) stay on the thread's stack instead of widening the async frame of ``run()``, which every request
    // allocates (decision 0034).

    /// What the reads so far brought: the final head once it came, body bytes that came with it, the end.
    struct HeadReading {
        var head: HTTP1ResponseHead?
        /// The body bytes that came with the head: one chunk, not an array of them, since the parser joins what one
        /// read brings (a second chunk, which the head's read cannot bring, would be appended).
        var body: [UInt8]?
        var ended = false
    }

    /// Sets the connection up for this exchange and returns the download meter (`nil` without a limiter).
    ///
    /// With a limiter the head is read in granted pieces too, so no body byte is read before it was granted; the
    /// head's own bytes go back to the budget when each read is settled.
    @inline(never)
    private func begin() -> BandwidthMeter? {
        connection.inactivityTimeout = plan.timeout
        connection.lowSpeed = plan.lowSpeed.map { LowSpeedWindow(limit: $0, now: NanoTime.now()) }
        connection.parser.expectResponse(
            toMethod: plan.request.method, upgradeRequested: plan.request.headerFields[.upgrade] != nil)
        connection.requestCount += 1
        return BandwidthMeter(context, direction: .download)
    }

    /// Takes the parser's events: interim heads are skipped, the final head, body bytes and the end are kept.
    @inline(never)
    private func collectEvents(into reading: inout HeadReading) {
        for event in connection.events {
            switch event {
            case .head(let interim) where interim.isInformational: continue
            case .head(let final): reading.head = final
            case .body(let bytes) where reading.body == nil: reading.body = bytes
            case .body(let bytes): reading.body! += bytes
            case .end: reading.ended = true
            }
        }
        connection.events.removeAll(keepingCapacity: true)
    }

    /// The response around the final head: the body from the chunks that came with it, and the connection back in
    /// the pool when the body is complete. Synchronous and never inlined, so its temporaries stay out of the async
    /// frame of ``run()``.
    @inline(never)
    private func response(_ reading: HeadReading, reusable: Bool) -> Response {
        guard let head = reading.head else { preconditionFailure("the loop ends with a head") }
        let ended = reading.ended
        let expected: Int64? = switch head.framing {
        case .none: 0
        case .contentLength(let length): length
        case .chunked, .closeDelimited: nil
        }
        var progress = ProgressCounter(context: context, direction: .download, expected: expected)
        if let bytes = reading.body { progress.add(bytes.count) }
        let reuse = ReusePolicy(
            keepAlive: head.keepAlive && plan.persistent && reusable,
            idleTimeout: head.keepAliveTimeout.map { UInt64(max(0, $0)) &* 1_000_000_000 } ?? plan.idleTimeout)

        let body: ResponseBody
        if ended {
            // Taken before the connection goes back to the pool, where the next exchange resets them.
            let trailers = connection.parser.trailers
            core.finish(connection, reuse: reuse, logger: context.logger)
            if let trailers {
                let chunks = reading.body.map { [$0] } ?? []
                body = ResponseBody(expectedLength: expected, source: BufferedBodySource(chunks, trailers: trailers))
            } else {
                // The whole body came with the head (the usual small response): the body holds it, no source.
                body = ResponseBody(bytes: reading.body ?? [], expectedLength: expected)
            }
        } else {
            let source = ConnectionBodySource(
                core: core, connection: connection, chunks: reading.body.map { [$0] } ?? [], reuse: reuse,
                progress: progress)
            body = ResponseBody(expectedLength: expected, source: source)
        }
        return Response(head: head.head, body: body, connectionID: connection.id, route: plan.key.route,
                        isFromProxy: plan.key.isForwarded)
    }
}

/// Whether a connection may go back to the pool after its response, and for how long.
struct ReusePolicy: Sendable {
    /// The server allows reuse (`Connection`, `Keep-Alive` max, version) and the request wants it.
    var keepAlive: Bool
    /// How long it may wait idle (the server's `Keep-Alive: timeout=` or the configured/request timeout).
    var idleTimeout: UInt64
}

extension TransportCore {
    /// Ends an exchange whose response is complete: back to the pool when the policy and the connection's state
    /// allow it, otherwise closed.
    func finish(_ connection: Connection, reuse policy: ReusePolicy, logger: Logger) {
        connection.saveTLSSession()
        let reuse = policy.keepAlive && connection.isReusable
        if reuse { connection.idleDeadline = NanoTime.deadline(after: policy.idleTimeout) }
        checkIn(connection, reuse: reuse, reason: policy.keepAlive ? "not reusable" : "no keep-alive", logger: logger)
    }
}
