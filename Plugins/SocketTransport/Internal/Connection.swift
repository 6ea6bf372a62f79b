import HTTPCore
import Synchronization

/// One HTTP/1.1 connection: a connected non-blocking socket, its TLS session and its response parser.
///
/// It holds a read buffer only from a read until its bytes are parsed: the buffer is borrowed from the event loop's
/// ``ReadBufferPool``, so a connection that waits for its answer or idles in the pool holds none (decision 0038).
///
/// A connection has exactly one owner at a time: the pool (under the pool's lock), the request that is
/// sending on it, or the response body that is reading from it. Ownership moves with the object; nobody keeps
/// a second reference that does I/O. That is why it can be `@unchecked Sendable` without a lock of its own.
///
/// I/O happens on the owner's thread. Only when a call would block does the owner wait on ``handle``, and the
/// event loop resumes it: one thread hop per wait.
final class Connection: @unchecked Sendable {  // exclusive ownership, see above
    private static let ids = Atomic<UInt64>(0)
    /// The size of the first read; a read that fills its size doubles the next one's, up to
    /// ``ReadBufferPool/bufferSize``.
    private static let firstReadSize = 16 * 1024

    /// Unique in the process; returned as `Response.connectionID`.
    let id: UInt64
    /// The pool key: scheme, host, port and TLS options.
    let key: PoolKey
    /// The socket.
    let fd: Int32
    /// Its registration with the event loop.
    let handle: IOHandle
    /// The TLS session for `https`, set once the handshake starts.
    private(set) var tls: TLSSession?
    /// The response parser; its state carries over between requests on the connection.
    var parser: HTTP1ResponseParser
    /// A reused array for the parser's events.
    var events: [HTTP1Event] = []
    /// The inactivity timeout for every wait of the current exchange (``NanoTime``; `never` for none).
    var inactivityTimeout = NanoTime.never
    /// The low-speed check of the current exchange (curl's `--speed-limit`), `nil` for none.
    var lowSpeed: LowSpeedWindow?
    /// When the connection stops being reusable while idle in the pool.
    var idleDeadline: UInt64 = 0
    /// How many requests were sent on it.
    var requestCount = 0
    /// Whether it carried a connection-bound authentication (an NTLM handshake: a request with
    /// ``RequestContext/preferredConnectionID``): the pool then gives it only to a request that asks for its id.
    var isBound = false
    /// Whether it is a connection to a proxy whose `CONNECT` was answered with a challenge of a connection-bound
    /// scheme (NTLM) and kept for the handshake's next `CONNECT`: not a tunnel yet. Such a connection is also
    /// bound, so only the request that names it takes it.
    var awaitsTunnel = false
    /// Whether the peer closed its side.
    private(set) var sawEndOfStream = false
    private(set) var isClosed = false
    /// The pool's buffer the last read filled, held until its bytes are parsed (``parse(_:)``), the next read
    /// waits, or the connection goes idle (``returnReadBuffer()``).
    private var readBuffer: UnsafeMutableRawPointer?
    /// How many bytes the next read asks for.
    private(set) var readSize = firstReadSize
    /// The buffer the request head (and a small body) is written from, reused from request to request while it
    /// stays small (``takeWriteBuffer()`` and ``keepWriteBuffer(_:)``).
    private var writeBuffer: [UInt8] = []
    /// A write buffer larger than this (a head with a small body) is not kept, so an idle connection holds little.
    private static let keptWriteBufferCapacity = 4 * 1024
    /// Whether the last plain-TCP read returned fewer bytes than it asked for: the socket was empty then, so the
    /// next read waits for a readiness edge first instead of calling `recv` only to get `EAGAIN`. Never set for
    /// TLS, where a short read says nothing about the socket.
    private var drained = false

    /// Wraps a connected socket.
    /// - Parameters:
    ///   - fd: The connected socket, already registered.
    ///   - handle: Its registration.
    ///   - key: The pool key it serves.
    ///   - limits: The response parser's size limits.
    init(fd: Int32, handle: IOHandle, key: PoolKey, limits: HTTP1Limits = HTTP1Limits()) {
        id = Self.ids.add(1, ordering: .relaxed).newValue
        parser = HTTP1ResponseParser(limits: limits)
        self.fd = fd
        self.handle = handle
        self.key = key
    }

    deinit {
        close()
        returnReadBuffer()
    }

    /// Runs the TLS handshake: on the socket, or inside the TLS session already running (TLS to the origin in a
    /// tunnel through an HTTPS proxy).
    /// - Parameters:
    ///   - context: The TLS context for the connection's options.
    ///   - host: The host name for SNI and certificate checks.
    ///   - port: The port, for the session cache key.
    ///   - deadline: The connect deadline.
    ///   - hostPins: Public-key pins for this host beyond the context's.
    /// - Throws: ``ClientError`` (`certificateInvalid`, `publicKeyPinMismatch`, `tlsHandshakeFailed`, `timedOut`) or
    ///   `CancellationError`.
    func startTLS(
        context: TLSContext, host: String, port: Int, deadline: UInt64, hostPins: PublicKeyPins? = nil
    ) async throws {
        let session = try TLSSession(context: context, fd: fd, host: host, port: port, over: tls, hostPins: hostPins)
        tls = session
        drained = false  // set by plain reads before a tunnel's TLS starts; says nothing about TLS reads
        while true {
            switch session.handshake() {
            case .bytes: return
            case .wouldBlock(let interest): try await wait(for: interest, until: deadline, connecting: true)
            case .failed(let error): throw error
            case .endOfStream: throw ClientError(.tlsHandshakeFailed, stage: .transport, message: "Connection closed")
            }
        }
    }

    /// Reads what has arrived, waiting when nothing has. Read the bytes with ``received(_:)``.
    /// - Parameter limit: The most bytes to read (the bandwidth limiter's grant), at least 1.
    /// - Returns: How many bytes are in the buffer; 0 when the peer closed.
    /// - Throws: ``ClientError`` or `CancellationError`.
    func read(upTo limit: Int = .max) async throws -> Int {
        let count = min(limit, readSize)
        // A short read drained the socket, so the next read waits first and saves a futile `recv`. Not with a
        // low-speed window: the wait judges the window, and a task that was not scheduled for a while (a busy
        // machine) must count the bytes that arrived meanwhile before its window is judged.
        if drained {
            drained = false
            if lowSpeed == nil {
                returnReadBuffer()  // the last read's bytes are dead now; no buffer is held across a wait
                try await wait(for: .read, until: NanoTime.deadline(after: inactivityTimeout), connecting: false,
                               orHangUp: true)
            }
        }
        while true {
            let buffer = borrowReadBuffer()
            let result = tls?.read(into: buffer, count: count) ?? Socket.receive(fd, buffer, count)
            switch result {
            case .bytes(let read):
                if lowSpeed != nil { try lowSpeed!.record(read, now: NanoTime.now()) }
                if read == readSize && readSize < ReadBufferPool.bufferSize { readSize *= 2 }
                drained = read < count && tls == nil
                return read
            case .endOfStream:
                returnReadBuffer()
                sawEndOfStream = true
                return 0
            case .wouldBlock(let interest):
                returnReadBuffer()
                try await wait(for: interest, until: NanoTime.deadline(after: inactivityTimeout), connecting: false)
            case .failed(let error):
                returnReadBuffer()
                throw error
            }
        }
    }

    /// The first `count` bytes the last read brought, valid until the next read or ``returnReadBuffer()``.
    func received(_ count: Int) -> UnsafeRawBufferPointer {
        guard count > 0, let readBuffer else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: readBuffer, count: count)
    }

    /// The buffer held since the last read, or one borrowed from the loop's pool.
    private func borrowReadBuffer() -> UnsafeMutableRawPointer {
        if let readBuffer { return readBuffer }
        let buffer = handle.loop.readBuffers.take()
        readBuffer = buffer
        return buffer
    }

    /// Gives the read buffer back to the loop's pool, if the connection holds one; what the last read brought is
    /// gone then. Called when the connection goes idle, and by ``parse(_:)`` once the bytes are parsed.
    func returnReadBuffer() {
        guard let buffer = readBuffer else { return }
        readBuffer = nil
        handle.loop.readBuffers.giveBack(buffer)
    }

    /// Feeds `count` received bytes (0 for the end of stream) to the parser; the events land in ``events``.
    ///
    /// Never inlined: the parser's temporaries would otherwise widen the async frames of every caller that reads.
    /// The parser copies what it keeps, so the read buffer goes back to the loop's pool afterwards.
    /// - Throws: ``ClientError`` from the parser.
    @inline(never)
    func parse(_ count: Int) throws {
        defer { returnReadBuffer() }
        events.removeAll(keepingCapacity: true)
        if count == 0 {
            try parser.feedEOF(into: &events)
        } else {
            try parser.feed(received(count), into: &events)
        }
    }

    /// The connection's write buffer, empty, for building the next message in; give it back with
    /// ``keepWriteBuffer(_:)`` once written.
    func takeWriteBuffer() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &writeBuffer)
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    /// Keeps a buffer from ``takeWriteBuffer()`` for the next message, unless it grew large.
    func keepWriteBuffer(_ written: [UInt8]) {
        if written.capacity <= Self.keptWriteBufferCapacity { writeBuffer = written }
    }

    /// Writes all of `bytes[range]`, waiting whenever the socket is full.
    /// - Throws: ``ClientError`` or `CancellationError`.
    func write(_ bytes: [UInt8], range: Range<Int>? = nil) async throws {
        let range = range ?? bytes.indices
        var offset = range.lowerBound
        while offset < range.upperBound {
            let result = bytes.withUnsafeBytes { raw in send(raw.baseAddress! + offset, range.upperBound - offset) }
            offset += try await progress(of: result)
        }
    }

    /// Writes `count` bytes at `bytes`, which must stay valid until the call returns.
    /// - Throws: ``ClientError`` or `CancellationError`.
    func write(_ bytes: UnsafeRawPointer, count: Int) async throws {
        var offset = 0
        while offset < count {
            offset += try await progress(of: send(bytes + offset, count - offset))
        }
    }

    /// Whether the connection can carry another request now: open, not at end of stream, the parser between
    /// messages with nothing extra buffered, and no pending TLS bytes.
    var isReusable: Bool {
        !isClosed && !sawEndOfStream && parser.isIdle && !parser.hasBufferedBytes && !handle.hasFailed
            && !(tls?.hasPendingBytes ?? false)
    }

    /// Checks an idle connection before reuse: not expired, and the server neither closed it nor sent anything.
    /// - Parameter now: The current ``NanoTime``.
    /// - Returns: Whether to reuse it.
    func isUsable(now: UInt64) -> Bool {
        guard !isClosed, idleDeadline > now, !handle.isFinished else { return false }
        guard handle.mayBeReadable else { return true }
        handle.clearReadable()
        return Socket.isQuiet(fd)
    }

    /// The protocol TLS negotiated by ALPN, or `nil` (cleartext, or the server chose none).
    var negotiatedProtocol: String? { tls?.negotiatedProtocol }

    /// Saves the TLS session for resumption (once), when the connection uses TLS.
    func saveTLSSession() {
        tls?.saveSessionIfResumable()
    }

    /// Closes the socket (sending TLS `close_notify` first); idempotent.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        if !sawEndOfStream && !handle.hasFailed { tls?.sendCloseNotify() }
        handle.loop.unregister(handle)
        Socket.close(fd)
    }

    private func send(_ bytes: UnsafeRawPointer, _ count: Int) -> IOResult {
        tls?.write(bytes, count: count) ?? Socket.send(fd, bytes, count)
    }

    /// Bytes written by `result`, after waiting when it would block.
    private func progress(of result: IOResult) async throws -> Int {
        switch result {
        case .bytes(let written):
            if lowSpeed != nil { try lowSpeed!.record(written, now: NanoTime.now()) }
            return written
        case .wouldBlock(let interest):
            try await wait(for: interest, until: NanoTime.deadline(after: inactivityTimeout), connecting: false)
            return 0
        case .failed(let error):
            throw error
        case .endOfStream:
            throw ClientError(.sendFailed, stage: .transport, message: "The server closed the connection while sending")
        }
    }

    private func wait(
        for interest: IOHandle.Interest, until deadline: UInt64, connecting: Bool, orHangUp: Bool = false
    ) async throws {
        // The low-speed limit fails the wait where its window would fail with no more bytes; the handshake has none.
        // (A handle's timeout is final, so the wait cannot wake early just to judge a window.)
        var lowSpeedDeadline = NanoTime.never
        if !connecting, lowSpeed != nil { lowSpeedDeadline = try lowSpeed!.failureDeadline(now: NanoTime.now()) }
        do {
            try await handle.wait(for: interest, until: min(deadline, lowSpeedDeadline), orHangUp: orHangUp)
        } catch is IOHandle.TimedOut {
            if lowSpeedDeadline < deadline, let lowSpeed { throw lowSpeed.failure }
            throw connecting
                ? ClientError(.timedOut, stage: .transport, message: "The TLS handshake with \(key) timed out")
                : ClientError(.timedOut, stage: .transport,
                              message: "Nothing was sent or received for \(NanoTime.describe(inactivityTimeout))")
        }
    }
}
