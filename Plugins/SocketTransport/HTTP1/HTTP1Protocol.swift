public import HTTPCore

/// HTTP/1.1 as an ``HTTPCore/ApplicationProtocol``: the protocol every ``POSIXTransport`` speaks, one exchange at a
/// time per pooled connection, offered by ALPN as `http/1.1` after the configured multiplexed protocols.
///
/// The transport speaks it itself (its pool, request serializer and response parser): it is the seam's first
/// implementation and the fallback of every other, never a plug-in (decision 0031).
public struct HTTP1Protocol: ApplicationProtocol {
    /// `http/1.1`.
    public var alpnIdentifier: String { "http/1.1" }
    /// `false`: one exchange at a time per connection.
    public var isMultiplexed: Bool { false }

    /// The protocol.
    public init() {}
}
