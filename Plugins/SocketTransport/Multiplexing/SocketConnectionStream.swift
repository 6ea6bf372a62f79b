import HTTPCore

/// A ``Connection`` handed to a ``MultiplexedProtocol``'s session as its ``ConnectionStream``.
///
/// Only the session's driver reads and writes (one task at a time, as ``Connection`` requires of its owner);
/// ``wakeReader()`` and ``close()`` only touch the connection's ``IOHandle``, which has its own lock. The socket
/// itself is closed by the transport once the session's `run()` has returned (``MultiplexedSessions``).
final class SocketConnectionStream: ConnectionStream, @unchecked Sendable {  // one driver task does the I/O
    let connection: Connection
    let connectionID: UInt64
    let negotiatedProtocol: String?
    let idleTimeout: Duration?

    /// - Parameters:
    ///   - connection: The connection.
    ///   - idleTimeout: The idle lifetime a pooled HTTP/1.1 connection to the same origin would get
    ///     (``POSIXTransport/Configuration/idleTimeout``, else the opening request's
    ///     ``HTTPCore/RequestOptions/persistentConnectionTimeout``).
    init(connection: Connection, idleTimeout: Duration?) {
        self.connection = connection
        connectionID = connection.id
        negotiatedProtocol = connection.negotiatedProtocol
        self.idleTimeout = idleTimeout
    }

    /// The last read found the socket empty (`EAGAIN`): with an edge-triggered loop no byte can be read until the
    /// next readiness edge, so the next read waits for one (or a wake-up) first instead of trying in vain. A driver
    /// woken to write costs no `recv` then. Only the driver touches these.
    private var drained = false
    /// The last read filled the caller's buffer, so more bytes were waiting: the read that finds the socket empty
    /// after it returns `nil` before waiting, so the caller can act on the end of the burst first.
    private var lastReadFilled = false
    /// A failure or the end of the stream met after some bytes were read: those are returned first, the failure
    /// or the end (0) on the next read.
    private var pendingFailure: (any Error)?
    private var pendingEnd = false

    /// Reads as much as has arrived, up to the buffer's size: with TLS one call can give several records.
    func read(into buffer: UnsafeMutableRawBufferPointer) async throws -> Int? {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        if let failure = pendingFailure {
            pendingFailure = nil
            throw failure
        }
        if pendingEnd { return 0 }
        var filled = 0
        while true {
            if drained {
                if filled > 0 { return filled }
                if lastReadFilled {
                    lastReadFilled = false
                    return nil
                }
                // A wake-up hands control back to the driver; readiness means bytes (or the close) to read.
                guard try await connection.handle.waitOrWake(for: .read) else { return nil }
                drained = false
            }
            let result = connection.tls?.read(into: base + filled, count: buffer.count - filled)
                ?? Socket.receive(connection.fd, base + filled, buffer.count - filled)
            switch result {
            case .bytes(let count):
                filled += count
                if filled == buffer.count {
                    lastReadFilled = true
                    return filled
                }
            case .endOfStream:
                pendingEnd = true
                return filled
            case .failed(let error):
                guard filled > 0 else { throw error }
                pendingFailure = error
                return filled
            case .wouldBlock(.read):
                drained = true
                lastReadFilled = lastReadFilled && filled == 0
            case .wouldBlock(.write):
                if filled > 0 { return filled }
                // TLS needs to write before it can read on (a key update): wait for room, or hand control back.
                guard try await connection.handle.waitOrWake(for: .write) else { return nil }
            }
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) async throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        try await connection.write(base, count: bytes.count)
    }

    func wakeReader() {
        connection.handle.wake()
    }

    func close() {
        connection.handle.fail(ClientError(.connectFailed, stage: .transport, message: "The connection was closed"))
    }
}
