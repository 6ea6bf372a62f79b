import CNGHTTP2
import HTTPCore
import Logging
import Synchronization

/// One HTTP/2 connection: the ``HTTP2Connection`` behind a lock, the byte stream the transport opened, and the
/// driver that does all of the connection's I/O (``run()``).
///
/// Requests submit their streams and buffer their upload under the lock, then wake the driver, which writes what
/// nghttp2 has queued and reads frames, dispatching them to the streams. Continuations are resumed after the lock
/// is released.
final class HTTP2Session: ProtocolSession {
    /// The most request body bytes buffered per stream before its uploader waits.
    static let uploadBufferLimit = 256 * 1024
    /// The most bytes collected from nghttp2 for one write.
    private static let writeBatch = 256 * 1024
    private static let readBufferSize = 64 * 1024

    let stream: any ConnectionStream
    let configuration: HTTP2Protocol.Configuration
    let logger: Logger
    let state: Mutex<HTTP2Connection>
    /// The transport's handler, boxed: a closure stored straight in a `Mutex` is kept at the generic abstraction
    /// level, and every `withLock` (an `inout` access) wrapped it in two more reabstraction thunks on the way out
    /// and back, so each call went through all the thunks of the calls before it (two-thirds of the CPU time after
    /// 10,000 requests).
    private let capacityHandler = Mutex<CapacityHandler?>(nil)

    /// The capacity handler as a nominal type, which a generic container stores as it is.
    private struct CapacityHandler {
        let call: @Sendable () -> Void
    }

    init(stream: any ConnectionStream, configuration: HTTP2Protocol.Configuration, logger: Logger) throws {
        self.stream = stream
        self.configuration = configuration
        self.logger = logger
        let connection = try HTTP2Connection(configuration: configuration)
        try connection.start()
        state = Mutex(connection)
    }

    func setCapacityHandler(_ handler: @escaping @Sendable () -> Void) {
        capacityHandler.withLock { $0 = CapacityHandler(call: handler) }
    }

    func reserveStream() -> Bool {
        state.withLock { connection in
            guard connection.hasRoom else { return false }
            connection.reserved += 1
            return true
        }
    }

    func releaseReservation() {
        state.withLock { connection in
            connection.reserved -= 1
            connection.lastStreamEnded = .now
        }
        capacityHandler.withLock { $0 }?.call()
    }

    var isAcceptingStreams: Bool {
        state.withLock { !$0.isClosed && !$0.goingAway }
    }

    func close() {
        stream.close()
    }

    /// Runs a body of work under the lock, then resumes what it queued.
    func locked<Result>(_ body: (HTTP2Connection) throws -> Result) rethrows -> Result {
        let (result, actions) = try state.withLock { connection in
            let result = try body(connection)
            return (result, connection.takeActions())
        }
        perform(actions)
        return result
    }

    /// Runs a body of work under the lock, resumes what it queued, and wakes the driver when nghttp2 has frames to
    /// send afterwards (a `WINDOW_UPDATE` that came due, a `RST_STREAM`, upload bytes): a read that made nghttp2
    /// queue nothing costs the driver no wake-up.
    func lockedWakingWriter<Result>(_ body: (HTTP2Connection) throws -> Result) rethrows -> Result {
        let (result, wantsWrite) = try locked { connection in (try body(connection), connection.wantsWrite) }
        if wantsWrite { stream.wakeReader() }
        return result
    }

    func perform(_ actions: [HTTP2Connection.Action]) {
        var capacityChanged = false
        for action in actions {
            switch action {
            case .resumeHead(let waiter, let error):
                if let error { waiter.resume(throwing: error) } else { waiter.resume() }
            case .resumeBody(let waiter, let result):
                waiter.resume(with: result)
            case .resumeUpload(let waiter, let progress):
                waiter.resume(returning: progress)
            case .capacityChanged:
                capacityChanged = true
            }
        }
        if capacityChanged { capacityHandler.withLock { $0 }?.call() }
    }

    // MARK: - The driver

    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.watchStreams() }
            await drive()
            group.cancelAll()
        }
    }

    /// Does the connection's I/O until it ends.
    private func drive() async {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var outbound = OutboundBuffer(capacity: Self.writeBatch + 32 * 1024)
        defer { outbound.deallocate() }
        var failure: ClientError?
        do {
            while true {
                outbound.count = 0
                let finished = try locked { connection -> Bool in
                    try Self.collectOutbound(connection, into: &outbound)
                    guard let session = connection.session else { return true }
                    return nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0
                }
                if !outbound.isEmpty {
                    try await stream.write(outbound.bytes)
                    continue
                }
                if finished { break }
                guard let count = try await stream.read(into: buffer) else {
                    // Woken, or the burst of reads is over: the readers held back get their bytes.
                    locked { $0.wakeDeferredReaders() }
                    continue
                }
                if count == 0 {
                    failure = ClientError(.receiveFailed, stage: .transport,
                                          message: "The server closed the HTTP/2 connection")
                    break
                }
                try locked { connection in
                    guard let session = connection.session else { return }
                    connection.lastReceived = .now
                    // A full buffer: more bytes are waiting, and the readers are woken once the burst ends.
                    connection.defersBodyWakeups = count == buffer.count
                    let read = nghttp2_session_mem_recv(
                        session, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
                    if read < 0 {
                        throw ClientError(.protocolViolation, stage: .transport,
                                          message: "HTTP/2: \(String(cString: nghttp2_strerror(Int32(read))))")
                    }
                    if !connection.defersBodyWakeups { connection.wakeDeferredReaders() }
                }
            }
        } catch let error as ClientError {
            failure = error
            // A protocol error queued a GOAWAY; send it if the connection still takes bytes.
            outbound.count = 0
            try? locked { try Self.collectOutbound($0, into: &outbound) }
            if !outbound.isEmpty { try? await stream.write(outbound.bytes) }
        } catch {
            failure = ClientError(.receiveFailed, stage: .transport, message: "The HTTP/2 connection failed",
                                  underlying: error)
        }
        if let failure { logger.debug("HTTP/2 connection ended", metadata: ["reason": "\(failure.message)"]) }
        finish(failure ?? ClientError(.receiveFailed, stage: .transport, message: "The HTTP/2 connection closed"))
    }

    /// Appends what nghttp2 has to send, up to ``writeBatch`` bytes.
    private static func collectOutbound(_ connection: HTTP2Connection, into outbound: inout OutboundBuffer) throws {
        guard let session = connection.session else { return }
        while outbound.count < writeBatch {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            if count < 0 {
                throw ClientError(.internalError, stage: .transport,
                                  message: "HTTP/2: \(String(cString: nghttp2_strerror(Int32(count))))")
            }
            guard count > 0, let data else { return }
            outbound.append(UnsafeRawBufferPointer(start: data, count: count))
        }
    }

    /// The connection is over: every open stream fails (those the server never processed, and idempotent ones
    /// that got no byte of an answer before the connection was lost, as ``HTTPCore/RequestNotProcessed``), the
    /// stream closes, and waiting requests look elsewhere.
    private func finish(_ error: ClientError) {
        let lost = error.code == .receiveFailed || error.code == .sendFailed || error.code == .connectFailed
        locked { connection in
            connection.wakeDeferredReaders()  // bytes that arrived before the end are still read
            connection.isClosed = true
            for (id, stream) in connection.streams {
                stream.isClosed = true
                let unanswered = stream.status == nil && !stream.headArrived
                if !stream.headArrived && id > connection.lastStreamID
                    || lost && unanswered && stream.retriesIfConnectionLost
                {
                    connection.fail(stream, with: RequestNotProcessed(error: error))
                } else if stream.remoteEnded {
                    connection.wakeUploader(stream, .stopped)
                } else {
                    connection.fail(stream, with: error)
                }
            }
            connection.streams.removeAll()
            connection.free()
            connection.actions.append(.capacityChanged)
        }
        stream.close()
    }
}

/// The bytes collected from nghttp2 for one write: one allocation for the connection's life, grown when a frame
/// does not fit. Owned by the driver.
struct OutboundBuffer {
    private var storage: UnsafeMutableRawBufferPointer
    /// Bytes collected.
    var count = 0

    init(capacity: Int) {
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    var isEmpty: Bool { count == 0 }

    /// The collected bytes, valid until the next append.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[..<count]) }

    mutating func append(_ data: UnsafeRawBufferPointer) {
        if count + data.count > storage.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(
                byteCount: max(storage.count * 2, count + data.count), alignment: 16)
            grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[..<count]))
            storage.deallocate()
            storage = grown
        }
        UnsafeMutableRawBufferPointer(rebasing: storage[count..<(count + data.count)]).copyMemory(from: data)
        count += data.count
    }

    func deallocate() {
        storage.deallocate()
    }
}
