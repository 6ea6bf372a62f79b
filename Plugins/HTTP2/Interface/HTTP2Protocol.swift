public import HTTPCore
public import Logging

/// HTTP/2 (RFC 9113) on nghttp2, plugged into a transport that opens the connections: one connection per origin
/// carries many requests at once, each on its own stream.
///
/// ```swift
/// let transport = POSIXTransport(configuration: .init(protocols: [HTTP2Protocol()]))
/// let client = Client(transport: transport)
/// ```
///
/// The transport then offers `h2,http/1.1` by ALPN on every TLS connection to an origin; an origin that chooses
/// `h2` gets one connection shared by its requests, up to the server's `SETTINGS_MAX_CONCURRENT_STREAMS` (100
/// until its SETTINGS arrive). Cleartext `http` origins get HTTP/1.1 unless
/// ``Configuration/speaksCleartextWithPriorKnowledge`` is set (RFC 9113 dropped the `Upgrade: h2c` path).
///
/// ## Flow control
/// The connection window is ``Configuration/connectionWindowSize`` (10 MiB) and each stream's starts at
/// ``Configuration/initialStreamWindowSize`` (64 KiB) and grows up to ``Configuration/maxStreamWindowSize`` (10
/// MiB) as its body is read, as curl does. Bytes are acknowledged (`WINDOW_UPDATE`) only when the response body's
/// reader takes them, so a reader that stops stops the server, and what waits in memory is bounded by the windows.
///
/// ## Failures
/// `RST_STREAM` fails its stream alone with ``HTTPCore/ClientError/Code/streamReset``. A `GOAWAY` stops new streams
/// on the connection; the streams above its last stream id (which the server did not process) are sent again on a
/// new connection when their bodies can be (``HTTPCore/RequestNotProcessed``). A response head larger than
/// ``Configuration/maxHeaderListSize`` resets its stream; nghttp2 refuses floods of `CONTINUATION` frames and server
/// pushes (push is disabled). A stream that waits past its request's timeout (for its head, its body, or window
/// room for its upload) is reset with ``HTTPCore/ClientError/Code/timedOut``; with
/// ``Configuration/pingInterval`` an idle connection that stops answering `PING` is closed.
///
/// ## Trailers, bandwidth and low speed
/// Trailers arrive on the body (``HTTPCore/ResponseBody/trailers``), also beside a `Content-Length`. The client's
/// bandwidth limiter and a request's `lowSpeedLimit` apply to each stream.
public struct HTTP2Protocol: MultiplexedProtocol {
    /// The settings.
    public let configuration: Configuration

    /// Creates the protocol.
    /// - Parameter configuration: The settings; the defaults follow curl.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// `h2`.
    public var alpnIdentifier: String { "h2" }

    /// ``Configuration/speaksCleartextWithPriorKnowledge``.
    public var speaksCleartextWithPriorKnowledge: Bool { configuration.speaksCleartextWithPriorKnowledge }

    /// Starts HTTP/2 on a connection: queues the connection preface, the client's SETTINGS and the connection
    /// window's growth.
    /// - Parameters:
    ///   - stream: The connection's byte stream.
    ///   - logger: Where the session logs.
    /// - Returns: The session.
    /// - Throws: ``HTTPCore/ClientError`` with ``HTTPCore/ClientError/Code/internalError`` when nghttp2 cannot
    ///   allocate the session.
    public func openSession(over stream: any ConnectionStream, logger: Logger) throws -> any ProtocolSession {
        try HTTP2Session(stream: stream, configuration: configuration, logger: logger)
    }
}

extension MultiplexedProtocol where Self == HTTP2Protocol {
    /// HTTP/2 on nghttp2.
    /// - Parameter configuration: Its settings.
    /// - Returns: The protocol, for `POSIXTransport.Configuration.protocols`.
    public static func http2(_ configuration: HTTP2Protocol.Configuration = .init()) -> HTTP2Protocol {
        HTTP2Protocol(configuration: configuration)
    }
}
