public import Logging

/// An application protocol a transport can speak over the connections it opens, named by its ALPN id.
///
/// HTTP/1.1 is the transport's own (one exchange at a time per connection, pooled); a
/// ``MultiplexedProtocol`` plug-in adds one that carries many exchanges over one connection (HTTP/2 in the
/// `HTTP2` plug-in). A transport that takes protocols in its configuration offers their ids by ALPN on every TLS
/// connection to an origin, most preferred first, then `http/1.1`.
public protocol ApplicationProtocol: Sendable {
    /// The ALPN protocol id (RFC 7301), for example `h2` or `http/1.1`.
    var alpnIdentifier: String { get }
    /// Whether one connection carries many exchanges at once.
    var isMultiplexed: Bool { get }
}

/// A protocol that carries many exchanges over one connection, plugged into a transport that opens the
/// connections (decision 0031).
///
/// The transport opens a connection, and when ALPN chose ``ApplicationProtocol/alpnIdentifier`` (or, for a
/// cleartext `http` origin, when ``speaksCleartextWithPriorKnowledge`` is `true`) it hands the byte stream to
/// ``openSession(over:logger:)``, runs the session's ``ProtocolSession/run()`` until the connection ends, and
/// sends every request for that origin through the session while it has room for another stream.
///
/// ## Implementation requirements
/// - Speak nothing but the protocol: the transport has made the connection, the pipeline does redirects,
///   cookies, authentication and caching.
/// - Never import the transport's module: this protocol and ``ConnectionStream`` are the whole seam.
///
/// ## Implement a custom protocol
/// ```swift
/// struct MyProtocol: MultiplexedProtocol {
///     var alpnIdentifier: String { "my/1" }
///     func openSession(over stream: any ConnectionStream, logger: Logger) throws -> any ProtocolSession {
///         try MySession(stream: stream)
///     }
/// }
/// ```
public protocol MultiplexedProtocol: ApplicationProtocol {
    /// Whether the transport speaks the protocol on a cleartext (`http`) connection without negotiating it first
    /// (HTTP/2's "prior knowledge", RFC 9113 §3.3). Default `false`: cleartext origins get HTTP/1.1.
    var speaksCleartextWithPriorKnowledge: Bool { get }
    /// Starts the protocol on a freshly opened connection (for HTTP/2: queues the connection preface).
    /// - Parameters:
    ///   - stream: The connection's byte stream; the session owns it from now on and closes it when it ends.
    ///   - logger: Where the session logs.
    /// - Returns: The session; the transport calls its ``ProtocolSession/run()`` next.
    /// - Throws: ``ClientError`` when the session cannot be set up.
    func openSession(over stream: any ConnectionStream, logger: Logger) throws -> any ProtocolSession
}

extension MultiplexedProtocol {
    /// A multiplexed protocol is multiplexed.
    public var isMultiplexed: Bool { true }
    /// Cleartext origins get HTTP/1.1 unless the protocol says otherwise.
    public var speaksCleartextWithPriorKnowledge: Bool { false }
}

/// One connection speaking a ``MultiplexedProtocol``: many exchanges at once, each on its own stream.
///
/// ## Implementation requirements
/// - ``run()`` does all of the connection's I/O until it ends (the peer closed or went away, a protocol error,
///   ``close()``), then closes the stream and fails the exchanges still open. The transport runs it once, on a
///   task of its own.
/// - ``reserveStream()`` is called before ``send(_:route:context:)``, which consumes the reservation; a session
///   that is closing or full answers `false`. ``releaseReservation()`` gives back a reservation not used.
/// - Call the `onCapacityChange` handler given at creation (through ``setCapacityHandler(_:)``) whenever a
///   stream ends or the session stops taking streams, so the transport can hand the room to a waiting request.
public protocol ProtocolSession: AnyObject, Sendable {
    /// Drives the connection until it ends.
    func run() async
    /// Takes room for one more stream; `false` when the session is full, closing or closed.
    /// - Returns: Whether a stream was reserved.
    func reserveStream() -> Bool
    /// Gives back a reservation that was not used.
    func releaseReservation()
    /// Whether the session still takes new streams (not closed, no `GOAWAY`).
    var isAcceptingStreams: Bool { get }
    /// Sends one request on a reserved stream and returns once the response head has arrived.
    /// - Parameters:
    ///   - request: The request.
    ///   - route: The route the connection goes through, for ``Response/route``.
    ///   - context: The request's context.
    /// - Returns: The response, its body streaming from the stream.
    /// - Throws: ``ClientError``; `CancellationError` when the task is cancelled.
    func send(_ request: Request, route: ProxyRoute, context: RequestContext) async throws -> Response
    /// Sets the handler called whenever room for a stream may have come free or the session stopped taking
    /// streams. Called once, before ``run()``.
    /// - Parameter handler: The handler; called from any thread, without the session's lock held.
    func setCapacityHandler(_ handler: @escaping @Sendable () -> Void)
    /// Stops the session: open streams fail, the connection closes. Idempotent.
    func close()
}
