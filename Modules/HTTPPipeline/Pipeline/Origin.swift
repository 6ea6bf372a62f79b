import FoundationEssentials
import HTTPCore

/// A URL's origin: scheme, host and port (RFC 6454). Credentials and cookies never cross origins on a redirect.
struct Origin: Hashable, Sendable {
    var scheme: String
    var host: String
    var port: Int

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host(percentEncoded: false)?.lowercased(),
            !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? URL.defaultPort(forScheme: scheme)
    }
}
