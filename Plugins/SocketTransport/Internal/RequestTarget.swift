import FoundationEssentials
import HTTPCore

/// Where a request goes, taken apart once: scheme, host, port, `Host` value and origin-form target.
struct RequestTarget: Sendable {
    /// `http` or `https`.
    let scheme: String
    /// The host, lower-cased, IPv6 literals without brackets.
    let host: String
    /// The port, with the scheme's default filled in.
    let port: Int
    /// The `Host` field value.
    let hostField: String
    /// The origin-form request target (`/path?query`).
    let path: String

    /// Whether the connection uses TLS.
    var isSecure: Bool { scheme == "https" }

    /// Takes `url` apart.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidRequest`` when the URL is not an absolute `http`
    ///   or `https` URL with a host.
    init(url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ClientError(.invalidRequest, stage: .transport,
                              message: "Only http and https URLs can be sent, not \(url.scheme ?? "a relative URL")")
        }
        guard var host = url.host(percentEncoded: false), !host.isEmpty else {
            throw ClientError(.invalidRequest, stage: .transport, message: "The URL has no host")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.scheme = scheme
        self.host = host.lowercased()
        let explicitPort = url.port
        let defaultPort = HTTP1RequestSerializer.defaultPort(forScheme: scheme)
        port = explicitPort ?? defaultPort
        guard (1...65535).contains(port) else {
            throw ClientError(.invalidRequest, stage: .transport, message: "The port \(port) is out of range")
        }
        hostField = HTTP1RequestSerializer.hostFieldValue(
            encodedHost: url.host(percentEncoded: true) ?? "", explicitPort: explicitPort, defaultPort: defaultPort)
        path = HTTP1RequestSerializer.originForm(of: url)
    }
}
