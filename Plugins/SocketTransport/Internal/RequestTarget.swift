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
        // The host as written, decoded only when it has something to decode (one URL look-up, not two).
        let encodedHost = url.host(percentEncoded: true)
        let decodedHost = encodedHost?.utf8.contains(UInt8(ascii: "%")) == false
            ? encodedHost : url.host(percentEncoded: false)
        guard var host = decodedHost, !host.isEmpty else {
            throw ClientError(.invalidRequest, stage: .transport, message: "The URL has no host")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.scheme = scheme
        // Lower-cased copies only for a host that needs one (ASCII without capitals is already lower-case).
        let isLowerASCII = host.utf8.allSatisfy { $0 < 0x80 && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
        self.host = isLowerASCII ? host : host.lowercased()
        let explicitPort = url.port
        let defaultPort = HTTP1RequestSerializer.defaultPort(forScheme: scheme)
        port = explicitPort ?? defaultPort
        guard (1...65535).contains(port) else {
            throw ClientError(.invalidRequest, stage: .transport, message: "The port \(port) is out of range")
        }
        hostField = HTTP1RequestSerializer.hostFieldValue(
            encodedHost: encodedHost ?? "", explicitPort: explicitPort, defaultPort: defaultPort)
        path = HTTP1RequestSerializer.originForm(of: url)
    }
}
