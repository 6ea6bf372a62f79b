extension HTTP2Protocol {
    /// Settings for ``HTTP2Protocol``.
    public struct Configuration: Sendable {
        /// Whether cleartext `http` origins are spoken to in HTTP/2 without negotiation (curl's
        /// `--http2-prior-knowledge`). Default `false`: they get HTTP/1.1.
        public var speaksCleartextWithPriorKnowledge: Bool
        /// The connection's receive window in bytes: what all its streams together may have in flight unread.
        /// Default 10 MiB (curl's).
        public var connectionWindowSize: Int
        /// A stream's first receive window in bytes (`SETTINGS_INITIAL_WINDOW_SIZE`). Default 64 KiB.
        public var initialStreamWindowSize: Int
        /// The most a stream's receive window grows to as its body is read. Default 10 MiB.
        public var maxStreamWindowSize: Int
        /// The largest response header (or trailer) section accepted, counted as RFC 9113 §6.5.2 does (name and
        /// value lengths plus 32 per field). Larger ones reset their stream with
        /// ``HTTPCore/ClientError/Code/protocolViolation``. Default 64 KiB, as for HTTP/1.1 heads.
        public var maxHeaderListSize: Int
        /// How many streams a connection carries before the server's SETTINGS say. Default 100 (RFC 9113's
        /// recommended minimum, and what curl assumes).
        public var assumedMaxConcurrentStreams: Int
        /// How long a connection without streams may stay silent before a `PING` probes it; a probe with no answer
        /// (nor any other frame) within the same interval closes the connection, so a dead one is never handed out.
        /// Default `nil`: no probes, as curl (which pings only when an app calls `curl_easy_upkeep`) and OkHttp
        /// (`pingInterval` 0). Probes are checked every 250 ms, so intervals below that act as 250 ms.
        public var pingInterval: Duration?

        /// Creates a configuration.
        /// - Parameters:
        ///   - speaksCleartextWithPriorKnowledge: Whether `http` origins get HTTP/2 without negotiation.
        ///   - connectionWindowSize: The connection's receive window.
        ///   - initialStreamWindowSize: A stream's first receive window.
        ///   - maxStreamWindowSize: The most a stream's receive window grows to.
        ///   - maxHeaderListSize: The largest response header section.
        ///   - assumedMaxConcurrentStreams: Streams per connection before the server's SETTINGS arrive.
        ///   - pingInterval: The silence after which an idle connection is probed with `PING`; `nil` for none.
        public init(
            speaksCleartextWithPriorKnowledge: Bool = false,
            connectionWindowSize: Int = 10 * 1024 * 1024,
            initialStreamWindowSize: Int = 64 * 1024,
            maxStreamWindowSize: Int = 10 * 1024 * 1024,
            maxHeaderListSize: Int = 64 * 1024,
            assumedMaxConcurrentStreams: Int = 100,
            pingInterval: Duration? = nil
        ) {
            self.speaksCleartextWithPriorKnowledge = speaksCleartextWithPriorKnowledge
            self.connectionWindowSize = Self.window(connectionWindowSize)
            self.initialStreamWindowSize = Self.window(initialStreamWindowSize)
            self.maxStreamWindowSize = max(Self.window(maxStreamWindowSize), self.initialStreamWindowSize)
            self.maxHeaderListSize = max(1024, maxHeaderListSize)
            self.assumedMaxConcurrentStreams = max(1, assumedMaxConcurrentStreams)
            self.pingInterval = pingInterval.map { max($0, .zero) }
        }

        /// A window size within HTTP/2's bounds (65,535 to 2^31 - 1).
        private static func window(_ size: Int) -> Int {
            min(max(size, 65_535), Int(Int32.max))
        }
    }
}
