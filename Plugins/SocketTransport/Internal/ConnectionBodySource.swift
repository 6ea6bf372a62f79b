import HTTPCore
import Synchronization

/// A response body read from its connection on demand: one socket read per ``next()`` when nothing is buffered,
/// so the transport is never more than one read buffer ahead of the consumer.
///
/// At the end of the body the connection goes back to the pool (or is closed); on an error, cancellation,
/// ``discard()`` of a large remainder, or when the body is dropped unread, it is closed.
///
/// With a bandwidth limiter, every read (also the drain of a discarded body) is sized by the limiter's grant, so
/// unread bytes wait in the kernel and its receive window slows the server down; each read is then settled with
/// the body bytes it produced.
final class ConnectionBodySource: ResponseBodySource {
    private struct State {
        var chunks: [[UInt8]]
        var index = 0
        /// The connection while it is idle between reads; `nil` while a read runs or after the end.
        var connection: Connection?
        /// The handle of the connection a read is running on, so ``discard()`` can interrupt it.
        var reading: IOHandle?
        /// Body bytes received so far.
        var received: Int64
        var finished = false
        var discarded = false
        /// The chunked body's trailer section, once the end was read.
        var trailers: HTTPFields?
        var failure: (any Error)?
    }

    private enum Step {
        case chunk([UInt8])
        case end
        case fail(any Error)
        case read(Connection)
    }

    /// Bodies with at most this much left are read to the end on ``discard()`` to keep the connection.
    private static let drainLimit: Int64 = 64 * 1024

    private let core: TransportCore
    private let reuse: ReusePolicy
    private let context: RequestContext
    private let expected: Int64?
    private let meter: BandwidthMeter?
    private let state: Mutex<State>

    init(
        core: TransportCore, connection: Connection, chunks: [[UInt8]], reuse: ReusePolicy, progress: ProgressCounter
    ) {
        self.core = core
        self.reuse = reuse
        context = progress.context
        expected = progress.expected
        meter = BandwidthMeter(context, direction: .download)
        state = Mutex(State(chunks: chunks, connection: connection, received: progress.completed))
    }

    deinit {
        if let connection = state.withLock({ $0.connection.take() }) {
            core.checkIn(connection, reuse: false, reason: "body dropped unread", logger: context.logger)
        }
    }

    func next() async throws -> [UInt8]? {
        let step = state.withLock { state -> Step in
            if state.index < state.chunks.count {
                let chunk = state.chunks[state.index]
                state.index += 1
                if state.index == state.chunks.count {
                    state.chunks.removeAll(keepingCapacity: true)
                    state.index = 0
                }
                return .chunk(chunk)
            }
            if let failure = state.failure { return .fail(failure) }
            guard !state.finished, !state.discarded, let connection = state.connection.take() else { return .end }
            state.reading = connection.handle
            return .read(connection)
        }
        switch step {
        case .chunk(let chunk): return chunk
        case .end: return nil
        case .fail(let error): throw error
        case .read(let connection): return try await read(from: connection)
        }
    }

    /// The chunked body's trailer section, once the body was read to its end.
    var trailers: HTTPFields? {
        state.withLock { $0.finished && $0.index >= $0.chunks.count ? $0.trailers : nil }
    }

    func discard() async {
        let connection = state.withLock { state -> Connection? in
            state.chunks = []
            state.index = 0
            guard !state.discarded else { return nil }
            state.discarded = true
            state.reading?.fail(ClientError(.connectFailed, stage: .transport, message: "The body was discarded"))
            return state.connection.take()
        }
        guard let connection else { return }
        let logger = context.logger
        let remaining = state.withLock { state in expected.map { $0 - state.received } }
        guard reuse.keepAlive, let remaining, remaining <= Self.drainLimit else {
            core.checkIn(connection, reuse: false, reason: "body discarded", logger: logger)
            return
        }
        do {
            while true {
                try await connection.readAndParse(metering: meter)
                let ended = connection.events.contains { if case .end = $0 { true } else { false } }
                connection.events.removeAll(keepingCapacity: true)
                if ended { break }
            }
            core.finish(connection, reuse: reuse, logger: logger)
        } catch {
            core.checkIn(connection, reuse: false, reason: "body discarded", logger: logger)
        }
    }

    /// Reads until at least one chunk or the end arrives.
    private func read(from connection: Connection) async throws -> [UInt8]? {
        let logger = context.logger
        // The parser joins what one read brings into one chunk: the first is kept apart, so a read needs no array.
        var first: [UInt8]?
        var more: [[UInt8]] = []
        var ended = false
        do {
            try Task.checkCancellation()
            while first == nil && !ended {
                try await connection.readAndParse(upTo: connection.readSize, metering: meter)
                for event in connection.events {
                    switch event {
                    case .body(let bytes) where first == nil: first = bytes
                    case .body(let bytes): more.append(bytes)
                    case .end: ended = true
                    case .head: throw ClientError(.protocolViolation, stage: .transport, message: "Unexpected head")
                    }
                }
                connection.events.removeAll(keepingCapacity: true)
            }
        } catch {
            let discarded = state.withLock { state -> Bool in
                state.reading = nil
                if !state.discarded { state.failure = error }
                return state.discarded
            }
            core.checkIn(connection, reuse: false, reason: discarded ? "body discarded" : "body failed", logger: logger)
            if discarded { return nil }
            throw error
        }

        // Taken before the connection goes back to the pool, where the next exchange resets them.
        let trailers = ended ? connection.parser.trailers : nil
        let count = (first?.count ?? 0) + more.reduce(0) { $0 + $1.count }
        let (discarded, before) = state.withLock { state -> (Bool, Int64) in
            state.reading = nil
            let before = state.received
            state.received += Int64(count)
            if ended {
                state.finished = true
                state.trailers = trailers
            } else if !state.discarded {
                state.connection = connection
            }
            if state.discarded { return (true, before) }
            if !more.isEmpty { state.chunks.append(contentsOf: more) }
            return (false, before)
        }
        var progress = ProgressCounter(context: context, direction: .download, expected: expected, completed: before)
        if let first { progress.add(first.count) }
        for chunk in more { progress.add(chunk.count) }
        if ended {
            core.finish(connection, reuse: reuse, logger: logger)
        } else if discarded {
            core.checkIn(connection, reuse: false, reason: "body discarded", logger: logger)
        }
        return discarded ? nil : first
    }
}
