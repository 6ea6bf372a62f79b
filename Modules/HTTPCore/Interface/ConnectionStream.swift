/// The byte stream of one connection a transport opened (TCP, with TLS when the URL is `https`), handed to a
/// ``MultiplexedProtocol`` that speaks its protocol over it.
///
/// The transport has done everything below the protocol: name resolution, the connect (through a proxy when the
/// route says so), TLS with its certificate and pin checks, and the ALPN negotiation whose outcome is
/// ``negotiatedProtocol``. The protocol only reads and writes bytes.
///
/// ## Implementation requirements
/// - One task at a time reads and writes (the protocol's connection driver); ``wakeReader()`` and ``close()`` may
///   be called from any thread.
/// - ``read(into:)`` waits for bytes without a deadline (an idle multiplexed connection is normal) and returns
///   `nil` when ``wakeReader()`` was called, so the driver can write what other tasks queued.
/// - ``close()`` is idempotent and makes a pending or later read or write fail.
/// - ``idleTimeout`` is the transport's idle lifetime for the connections it keeps; the protocol closes a connection
///   that carried no exchange for that long (default `nil`: never).
public protocol ConnectionStream: AnyObject, Sendable {
    /// The transport's id for the connection, returned as ``Response/connectionID``.
    var connectionID: UInt64 { get }
    /// The protocol TLS negotiated by ALPN (`h2`, `http/1.1`), or `nil` for a cleartext connection or a server
    /// that chose none.
    var negotiatedProtocol: String? { get }
    /// Reads what has arrived into `buffer`, waiting when nothing has.
    /// - Parameter buffer: Where the bytes go; at least one byte long.
    /// - Returns: The number of bytes read, 0 when the peer closed the connection, or `nil` when
    ///   ``wakeReader()`` interrupted the wait.
    /// - Throws: ``ClientError`` (`receiveFailed`, `connectFailed` once closed).
    func read(into buffer: UnsafeMutableRawBufferPointer) async throws -> Int?
    /// Writes all of `bytes`, waiting whenever the socket is full.
    /// - Parameter bytes: The bytes; valid until the call returns.
    /// - Throws: ``ClientError`` (`sendFailed`, `connectFailed` once closed).
    func write(_ bytes: UnsafeRawBufferPointer) async throws
    /// Makes the read that waits now (or the next one, if none waits) return `nil`. Callable from any thread.
    func wakeReader()
    /// Closes the connection and frees the transport's slot for it; idempotent.
    func close()
    /// How long the connection may carry no exchange before the protocol closes it (HTTP/2: `GOAWAY`, then the
    /// close), so an idle multiplexed connection lives as long as an idle pooled HTTP/1.1 one; `nil` for no limit.
    var idleTimeout: Duration? { get }
}

extension ConnectionStream {
    /// No idle limit: the connection stays open until the peer or ``close()`` ends it.
    public var idleTimeout: Duration? { nil }
}
