extension ProxyRoute {
    /// Creates a route from a proxy URL as curl reads one (`-x`, `http_proxy`): `[scheme://][user[:password]@]host
    /// [:port][/]`.
    ///
    /// The scheme picks the kind: none or `http` is an HTTP proxy, `https` one reached over TLS, `socks4` plain
    /// SOCKS4 (names resolved here), `socks4a` SOCKS4a, `socks5` SOCKS5 with names resolved here and `socks5h`
    /// SOCKS5 with names resolved by the proxy. The port defaults to 443 for `https` and to 1080 otherwise, as in
    /// curl. The user and password are percent-decoded and become the route's ``credential``; they never appear in
    /// an error. An IPv6 host is written in brackets. A path is ignored.
    /// - Parameter proxyURL: The proxy URL.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` for an unknown scheme, a missing host
    ///   or a bad port; the message shows the URL without its user information.
    public init(proxyURL: String) throws {
        var text = ProxyText.trimmed(proxyURL)
        var scheme = "http"
        if let separator = text.firstRange(of: "://") {
            scheme = text[..<separator.lowerBound].lowercased()
            text = text[separator.upperBound...]
        }
        // Shown in errors: only what follows the last "@", so no part of a password ever is, even one with a "/".
        let shown = "\(scheme)://" + (text.lastIndex(of: "@").map { text[text.index(after: $0)...] } ?? text)
        if let slash = text.firstIndex(of: "/") { text = text[..<slash] }
        var credential: Credential?
        if let at = text.lastIndex(of: "@") {
            credential = Self.credential(userInfo: text[..<at])
            text = text[text.index(after: at)...]
        }
        let (kind, remote): (Kind, Bool)
        switch scheme {
        case "http": (kind, remote) = (.http, true)
        case "https": (kind, remote) = (.https, true)
        case "socks4": (kind, remote) = (.socks4a, false)
        case "socks4a": (kind, remote) = (.socks4a, true)
        case "socks5": (kind, remote) = (.socks5, false)
        case "socks5h": (kind, remote) = (.socks5, true)
        default:
            throw ClientError(.invalidConfiguration, message: "Unsupported proxy scheme in \(shown)")
        }
        var host = text
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                throw ClientError(.invalidConfiguration, message: "Unclosed IPv6 address in proxy \(shown)")
            }
            let rest = host[host.index(after: close)...]
            if rest.hasPrefix(":") { portText = rest.dropFirst() } else if !rest.isEmpty {
                throw ClientError(.invalidConfiguration, message: "Bad proxy address \(shown)")
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw ClientError(.invalidConfiguration, message: "No host in proxy \(shown)") }
        var port = kind == .https ? 443 : 1080
        if let portText, !portText.isEmpty {
            guard let value = Int(portText), (1...65_535).contains(value) else {
                throw ClientError(.invalidConfiguration, message: "Bad port in proxy \(shown)")
            }
            port = value
        }
        if kind == .socks4a, let user = credential?.user { credential = Credential(user: user, password: "") }
        self.init(kind: kind, host: String(host), port: port, credential: credential, resolvesNamesRemotely: remote)
    }

    /// `user[:password]`, each percent-decoded (a part that does not decode is taken as written).
    private static func credential(userInfo: Substring) -> Credential {
        let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        func decoded(_ part: Substring) -> String {
            ProxyText.percentDecoded(part) ?? String(part)
        }
        return Credential(user: decoded(parts[0]), password: parts.count > 1 ? decoded(parts[1]) : "")
    }
}
