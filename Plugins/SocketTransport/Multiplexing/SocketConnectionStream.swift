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

    init(connection: Connection) {
        self.connection = connection
        connectionID = connection.id
        negotiatedProtocol = connection.negotiatedProtocol
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) async throws -> Int? {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        var waited = false
        while true {
            let result = connection.tls?.read(into: base, count: buffer.count)
                ?? Socket.receive(connection.fd, base, buffer.count)
            switch result {
            case .bytes(let count):
                return count
            case .endOfStream:
                return 0
            case .failed(let error):
                throw error
            case .wouldBlock(let interest):
                // After one wait the readiness may have been a wake-up: hand control back to the driver.
                if waited { return nil }
                waited = true
                try await connection.handle.wait(for: interest, until: NanoTime.never, wakeable: true)
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
