import FoundationEssentials
import HTTPCore

/// The URL attributes of a span and the server dimensions of the metrics.
struct ServerAttributes: Sendable {
    /// The URL without `user:password` (OpenTelemetry's `url.full` must not carry credentials).
    let fullURL: String
    /// The host, without the brackets of an IPv6 literal.
    let address: String
    /// The port, or the scheme's default.
    let port: Int
    /// `http` or `https`.
    let scheme: String

    init(_ url: URL) {
        fullURL = url.removingUserInfo()?.absoluteString ?? ""
        scheme = url.scheme?.lowercased() ?? "http"
        var host = url.host(percentEncoded: false) ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        address = host
        port = url.effectivePort
    }
}
