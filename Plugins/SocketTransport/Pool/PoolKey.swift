import HTTPCore

/// What makes two connections interchangeable: scheme, host, port and, for `https`, the TLS options.
///
/// Keying on the whole ``TLSOptions`` keeps a connection made without certificate validation (or with a client
/// certificate) away from requests that did not ask for that (ASIHTTPRequest bug #263).
struct PoolKey: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lower-cased.
    var scheme: String
    /// The host, lower-cased, IPv6 literals without brackets.
    var host: String
    /// The port, with the scheme's default filled in.
    var port: Int
    /// The TLS options for `https`; `nil` for `http`.
    var tls: TLSOptions?

    /// For example `https://example.com:443`.
    var description: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
