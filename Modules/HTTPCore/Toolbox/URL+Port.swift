package import FoundationEssentials

extension URL {
    /// The port a scheme uses when its URL names none: 443 for `https` and `wss`, 80 for every other scheme (the
    /// request path only sends `http` and `https`). The one default-port rule of the package: origins, proxy
    /// bypass lists, `Host` fields, `CONNECT` targets and signatures all take it from here. Case-insensitive,
    /// without lower-casing a copy.
    /// - Parameter scheme: A URL scheme in any case, or `nil`.
    /// - Returns: 443 or 80.
    package static func defaultPort(forScheme scheme: String?) -> Int {
        guard let scheme else { return 80 }
        let utf8 = scheme.utf8
        // `| 0x20` lower-cases an ASCII letter; every byte compared with is a lower-case letter.
        switch utf8.count {
        case 5: return utf8.elementsEqual("https".utf8, by: { $0 | 0x20 == $1 }) ? 443 : 80
        case 3: return utf8.elementsEqual("wss".utf8, by: { $0 | 0x20 == $1 }) ? 443 : 80
        default: return 80
        }
    }

    /// The port a request to this URL goes to: the URL's own, or its scheme's default (``defaultPort(forScheme:)``).
    package var effectivePort: Int {
        port ?? URL.defaultPort(forScheme: scheme)
    }
}
