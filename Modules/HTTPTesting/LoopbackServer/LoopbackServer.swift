public import FoundationEssentials
import Glibc

/// An HTTP/1.1 server on the loopback interface that answers with exact, scripted bytes and faults.
///
/// Tests use it to see exactly what a client sends (``requests``) and to make a real socket misbehave on cue:
/// close without answering, reset, stall, send a body cut short, pause mid-body. It is a separate
/// implementation built on plain POSIX threads and blocking sockets, with its own small request parser, so it
/// never shares a bug with the client under test.
///
/// It listens on port 0 of `127.0.0.1` (or `::1`) and reports the real ``port``. One thread accepts; each
/// connection gets its own thread, reads a whole request (head and body; it answers `Expect: 100-continue`
/// first), records it, and runs the ``LoopbackResponse`` the handler returns. Connections are persistent: a
/// client may send many requests on one, and ``connectionCount`` tells how many it opened. A malformed request
/// gets `400 Bad Request` and a close.
///
/// ```swift
/// let server = try LoopbackServer { request in
///     request.path == "/gone" ? .closeWithoutResponse : .ok("hello")
/// }
/// defer { server.shutdown() }
/// let url = server.url("/greeting?lang=en")
/// ```
///
/// The handler runs on the connection's thread, so it may block (each connection has its own thread), and must
/// be thread-safe when clients use several connections at once.
public final class LoopbackServer: Sendable {
    /// How the server listens and answers.
    public struct Configuration: Sendable {
        /// The IP address literal to listen on: `127.0.0.1` (default) or `::1`.
        public var host: String
        /// Whether to answer `Expect: 100-continue` with `100 Continue` before reading the body. When `false`
        /// the server stays silent and waits for the body, as an HTTP/1.0 server would.
        public var sendsContinue: Bool

        /// Creates a configuration.
        /// - Parameters:
        ///   - host: The IP address literal to listen on.
        ///   - sendsContinue: Whether to answer `Expect: 100-continue`.
        public init(host: String = "127.0.0.1", sendsContinue: Bool = true) {
            self.host = host
            self.sendsContinue = sendsContinue
        }
    }

    private let core: LoopbackCore
    /// The port the server listens on, chosen by the system.
    public let port: Int
    /// The address the server listens on, such as `127.0.0.1` or `::1`.
    public let host: String

    /// Starts a server with the default configuration on `host`.
    /// - Parameters:
    ///   - host: `127.0.0.1` (default) or `::1`.
    ///   - handler: Makes the answer to each request; called on the connection's thread.
    /// - Throws: `ClientError` with `.invalidConfiguration` when `host` is not an IP literal, or `.connectFailed`
    ///   when the socket cannot listen (for example no IPv6 on this machine).
    public convenience init(
        host: String = "127.0.0.1",
        handler: @escaping @Sendable (RecordedRequest) -> LoopbackResponse
    ) throws {
        try self.init(configuration: Configuration(host: host), handler: handler)
    }

    /// Starts a server.
    /// - Parameters:
    ///   - configuration: Where to listen and how to answer `Expect`.
    ///   - handler: Makes the answer to each request; called on the connection's thread.
    /// - Throws: `ClientError` with `.invalidConfiguration` when the host is not an IP literal, `.connectFailed`
    ///   when the socket cannot listen, or `.internalError` when a thread cannot start.
    public init(
        configuration: Configuration,
        handler: @escaping @Sendable (RecordedRequest) -> LoopbackResponse
    ) throws {
        var host = configuration.host
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let (listener, port) = try LoopbackSocket.listen(host: host)
        do {
            core = try LoopbackCore(listener: listener, sendsContinue: configuration.sendsContinue, handler: handler)
        } catch {
            _ = close(listener)
            throw error
        }
        self.port = port
        self.host = host
        do {
            try core.start()
        } catch {
            core.shutdown()
            throw error
        }
    }

    deinit {
        core.shutdown()
    }

    /// `http://127.0.0.1:PORT`, or `http://[::1]:PORT` for IPv6, without a trailing slash.
    public var baseURL: URL {
        URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)")!
    }

    /// A URL on this server.
    /// - Parameter pathAndQuery: The path and optional query, such as `/items?page=2`; a missing leading `/`
    ///   is added.
    /// - Returns: The absolute URL.
    public func url(_ pathAndQuery: String) -> URL {
        let suffix = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        return URL(string: baseURL.absoluteString + suffix)!
    }

    /// How many TCP connections the server has accepted so far.
    public var connectionCount: Int {
        core.snapshot.connectionCount
    }

    /// How many accepted connections are still open on the server's side.
    public var openConnectionCount: Int {
        core.snapshot.openSockets.count
    }

    /// Every request received so far, in the order their bodies finished arriving.
    public var requests: [RecordedRequest] {
        core.snapshot.requests
    }

    /// Stops listening, closes every connection, and waits for the server's threads to end. Idempotent; `deinit`
    /// calls it too.
    ///
    /// Scripted sleeps and stalls end at once; a handler that is still running is waited for, so handlers must
    /// not block indefinitely. Afterwards new connections are refused, and ``requests`` and ``connectionCount``
    /// keep their final values.
    public func shutdown() {
        core.shutdown()
    }
}
