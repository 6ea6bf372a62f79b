public import HTTPCore

/// Turns what `FindProxyForURL` returns into the ordered routes the transport fails over along.
///
/// The answer is a `;`-separated list such as `PROXY a:8080; SOCKS5 b:1080; DIRECT`, in any case, with any spaces.
/// Each entry is `DIRECT` or a keyword and `host[:port]`:
///
/// | keyword | route | default port |
/// | --- | --- | --- |
/// | `PROXY`, `HTTP` | ``HTTPCore/ProxyRoute/Kind/http`` | 80 |
/// | `HTTPS` | ``HTTPCore/ProxyRoute/Kind/https`` | 443 |
/// | `SOCKS`, `SOCKS4` | ``HTTPCore/ProxyRoute/Kind/socks4a`` | 1080 |
/// | `SOCKS5` | ``HTTPCore/ProxyRoute/Kind/socks5`` (names resolved by the proxy) | 1080 |
///
/// Entries that cannot be read (an unknown keyword, a missing host, a host outside printable ASCII, a bad port) are
/// skipped, as browsers do; an answer with no usable entry means `DIRECT`. Only the first ``maxRoutes`` usable
/// entries are kept, so that a script answering a list without end cannot make one request fail over along it.
public enum PACAnswer {
    /// The most routes taken from one answer; later entries are ignored. 32: real answers name two or three.
    public static let maxRoutes = 32

    /// The routes an answer names, in order, at most ``maxRoutes``; `[.direct]` when it names none.
    /// - Parameter answer: What `FindProxyForURL` returned.
    /// - Returns: One or more routes.
    public static func routes(from answer: String) -> [ProxyRoute] {
        var routes: [ProxyRoute] = []
        var rest = answer[...]
        while routes.count < maxRoutes, !rest.isEmpty {
            let end = rest.firstIndex(of: ";") ?? rest.endIndex
            if let route = route(from: rest[..<end]) { routes.append(route) }
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
        }
        return routes.isEmpty ? [.direct] : routes
    }

    /// One entry of an answer as a route.
    /// - Parameter entry: For example `PROXY proxy.example:3128`.
    /// - Returns: The route, or `nil` when the entry cannot be read.
    public static func route(from entry: Substring) -> ProxyRoute? {
        let words = entry.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
        guard let keyword = words.first?.uppercased() else { return nil }
        if keyword == "DIRECT" { return words.count == 1 ? .direct : nil }
        guard words.count == 2 else { return nil }
        let kind: ProxyRoute.Kind
        let defaultPort: Int
        switch keyword {
        case "PROXY", "HTTP": (kind, defaultPort) = (.http, 80)
        case "HTTPS": (kind, defaultPort) = (.https, 443)
        case "SOCKS", "SOCKS4": (kind, defaultPort) = (.socks4a, 1080)
        case "SOCKS5": (kind, defaultPort) = (.socks5, 1080)
        default: return nil
        }
        guard let (host, port) = hostAndPort(words[1], defaultPort: defaultPort) else { return nil }
        return ProxyRoute(kind: kind, host: host, port: port, resolvesNamesRemotely: true)
    }

    private static func hostAndPort(_ text: Substring, defaultPort: Int) -> (String, Int)? {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { return nil }
        } else {
            host = text
        }
        // A bracket left inside the host (`[[eth0]`, `a]b`) names nothing and would not survive being written back;
        // nor would a host outside printable ASCII (a lone combining mark joins the space before it into one
        // Character). Names outside ASCII are written in punycode (`xn--`), as browsers send them.
        guard !host.isEmpty, !host.contains(where: { "/@[]".contains($0) }),
            host.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        else { return nil }
        guard let portText else { return (String(host), defaultPort) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCIIDigit),
            let port = Int(portText), (1...65535).contains(port)
        else { return nil }
        return (String(host), port)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
