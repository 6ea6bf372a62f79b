public import FoundationEssentials
public import HTTPCore

/// Parses `Set-Cookie` header values into cookies and applies RFC 6265 §5.2–5.3's acceptance rules.
///
/// Cookies whose `Domain` does not cover the response's host, single-label domains other than the host itself,
/// and `Secure` cookies set over plain `http` are rejected. Name and value are kept verbatim.
public enum SetCookieParser {
    /// The longest `Set-Cookie` value accepted; longer ones are ignored (RFC 6265 §6.1 asks for at least 4096).
    public static let maxLength = 8192

    /// Parses one `Set-Cookie` value received from `url`.
    /// - Parameters:
    ///   - header: The header value.
    ///   - url: The URL of the response.
    ///   - now: The time of receipt, for `Max-Age` and the creation date.
    /// - Returns: The cookie, or `nil` when it is malformed or rejected.
    public static func parse(_ header: String, from url: URL, at now: Date = Date()) -> Cookie? {
        guard header.utf8.count <= maxLength, let host = url.host(percentEncoded: false)?.lowercased() else {
            return nil
        }
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = trim(pair[..<equals])
        let value = trim(pair[pair.index(after: equals)...])
        guard !name.isEmpty, !containsControl(name), !containsControl(value) else { return nil }

        var cookie = Cookie(name: name, value: value, domain: host, isHostOnly: true,
                            path: defaultPath(of: url), created: now)
        var maxAge: Date?
        var expires: Date?
        for attribute in parts.dropFirst() {
            let (key, attributeValue) = splitAttribute(attribute)
            switch key.lowercased() {
            case "expires":
                expires = CookieDateParser.date(from: attributeValue)
            case "max-age":
                guard let seconds = Int(attributeValue) ?? (attributeValue.hasPrefix("-") ? Int.min : nil) else { continue }
                maxAge = seconds <= 0 ? Date(timeIntervalSince1970: 0) : now.addingTimeInterval(TimeInterval(seconds))
            case "domain":
                var domain = attributeValue.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                guard acceptsDomain(domain, forHost: host) else { return nil }
                cookie.domain = domain
                cookie.isHostOnly = false
            case "path":
                cookie.path = attributeValue.hasPrefix("/") ? attributeValue : defaultPath(of: url)
            case "secure":
                cookie.isSecure = true
            case "httponly":
                cookie.isHTTPOnly = true
            default:
                continue
            }
        }
        cookie.expires = maxAge ?? expires
        if cookie.isSecure && url.scheme?.lowercased() != "https" { return nil }
        return cookie
    }

    /// Parses every `Set-Cookie` field of a response.
    /// - Parameters:
    ///   - fields: The response's header fields.
    ///   - url: The URL of the response.
    ///   - now: The time of receipt.
    /// - Returns: The accepted cookies, in header order.
    public static func cookies(in fields: HTTPFields, from url: URL, at now: Date = Date()) -> [Cookie] {
        fields[values: .setCookie].compactMap { parse($0, from: url, at: now) }
    }

    /// RFC 6265 §5.3 steps 5 and 6: whether a `Domain` attribute may be kept for a response from `host`.
    ///
    /// The domain must cover the host, and a single-label domain is accepted only as the host itself. This is the
    /// one place that decides; a public-suffix check (libpsl, refusing `co.uk` unless it is the host) belongs
    /// here too, so stores never need one.
    static func acceptsDomain(_ domain: String, forHost host: String) -> Bool {
        guard Cookie.domainMatches(host: host, domain: domain, hostOnly: false) else { return false }
        return domain.contains(".") || domain == host
    }

    /// RFC 6265 §5.1.4 default path: the request path up to, not including, its last `/`.
    static func defaultPath(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func splitAttribute(_ attribute: Substring) -> (String, String) {
        guard let equals = attribute.firstIndex(of: "=") else { return (trim(attribute), "") }
        return (trim(attribute[..<equals]), trim(attribute[attribute.index(after: equals)...]))
    }

    private static func trim(_ text: Substring) -> String {
        String(text.trimmingOWS())
    }

    private static func containsControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }
    }
}
