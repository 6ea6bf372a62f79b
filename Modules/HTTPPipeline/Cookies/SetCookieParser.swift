public import FoundationEssentials
public import HTTPCore

/// Parses `Set-Cookie` header values into cookies with RFC 6265 §5.2's algorithm and applies §5.3's acceptance
/// rules.
///
/// - The name-value pair ends at the first `;` and must contain `=`; a cookie without `=` or with an empty name is
///   ignored. Names and values keep every byte except leading and trailing spaces and tabs.
/// - Attribute names are case-insensitive; when one is given twice the last valid one wins. `Max-Age` wins over
///   `Expires`; a `Domain` or `Path` with an empty value is ignored, and a `Path` not starting with `/` means the
///   default path.
/// - Refused: a `Domain` that does not cover the host, a public suffix other than the host itself (asked of the
///   ``PublicSuffixList`` when one is given; without one, only single-label domains such as `com` are refused),
///   `Secure` over plain `http`, control characters or tabs in the name, value or path, and a header longer than
///   ``maxLength``
///   (the storage refuses a name and value longer than ``CookieStorage/Limits/maxCookieSize`` together).
/// - Clamped (RFC 6265bis): an attribute value longer than 1024 bytes is ignored, and an expiry more than 400 days
///   ahead becomes 400 days (``maxLifetime``). `SameSite` is kept as received.
public enum SetCookieParser {
    /// The longest `Set-Cookie` value accepted; longer ones are ignored (RFC 6265 §6.1 asks for at least 4096).
    public static let maxLength = 8192
    /// The longest attribute value honoured (RFC 6265bis §5.6: longer ones are ignored).
    public static let maxAttributeLength = 1024
    /// The longest a cookie lives: 400 days (RFC 6265bis §5.6), for `Expires` and `Max-Age` alike. A capped
    /// expiry is rounded to the nearest minute, as curl does.
    public static let maxLifetime: TimeInterval = 400 * 86_400
    /// The most `Set-Cookie` fields of one response that are parsed; the rest are ignored (as in curl), so one
    /// response cannot flush a domain's cookies.
    public static let maxCookiesPerResponse = 50

    /// Parses one `Set-Cookie` value received from `url`.
    /// - Parameters:
    ///   - header: The header value.
    ///   - url: The URL of the response.
    ///   - now: The time of receipt, for `Max-Age` and the creation date.
    ///   - publicSuffixes: Refuses cookies for public suffixes; `nil` refuses only single-label domains.
    /// - Returns: The cookie, or `nil` when it is malformed or refused.
    public static func parse(
        _ header: String, from url: URL, at now: Date = Date(), publicSuffixes: (any PublicSuffixList)? = nil
    ) -> Cookie? {
        guard header.utf8.count <= maxLength, let host = url.host(percentEncoded: false)?.lowercased() else {
            return nil
        }
        let semicolon = header.firstIndex(of: ";") ?? header.endIndex
        let pair = header[..<semicolon]
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = String(pair[..<equals].trimmingOWS())
        let value = String(pair[pair.index(after: equals)...].trimmingOWS())
        guard !name.isEmpty, !containsControlOrTab(name), !containsControlOrTab(value) else { return nil }

        let attributes = Attributes(header[semicolon...].dropFirst(), url: url, now: now)
        let path = attributes.path ?? defaultPath(of: url)
        guard !containsControlOrTab(path) else { return nil }
        var cookie = Cookie(name: name, value: value, domain: host, isHostOnly: true, path: path, created: now)
        if var domain = attributes.domain {
            if isPublicSuffix(domain, publicSuffixes) {
                guard domain == host else { return nil }
                domain = ""  // §5.3 step 5: a public suffix that is the host itself makes a host-only cookie
            }
            if !domain.isEmpty {
                guard acceptsDomain(domain, forHost: host) else { return nil }
                cookie.spelledDomain = attributes.spelledDomain ?? domain
                cookie.isHostOnly = Cookie.isIPAddress(host)  // an address has no subdomains: same cookie, plainer
            }
        }
        cookie.expires = (attributes.maxAge ?? attributes.expires).map { capped($0, now: now) }
        cookie.isSecure = attributes.isSecure
        cookie.isHTTPOnly = attributes.isHTTPOnly
        cookie.sameSite = attributes.sameSite
        if cookie.isSecure && url.scheme?.lowercased() != "https" { return nil }
        return cookie
    }

    /// Parses every `Set-Cookie` field of a response.
    /// - Parameters:
    ///   - fields: The response's header fields.
    ///   - url: The URL of the response.
    ///   - now: The time of receipt, shared by every cookie of the response.
    ///   - publicSuffixes: Refuses cookies for public suffixes; `nil` refuses only single-label domains.
    /// - Returns: The accepted cookies, in header order.
    public static func cookies(
        in fields: HTTPFields, from url: URL, at now: Date = Date(), publicSuffixes: (any PublicSuffixList)? = nil
    ) -> [Cookie] {
        fields[values: .setCookie].prefix(maxCookiesPerResponse).compactMap {
            parse($0, from: url, at: now, publicSuffixes: publicSuffixes)
        }
    }

    /// RFC 6265 §5.3 step 6: whether a `Domain` attribute may be kept for a response from `host`.
    ///
    /// The domain must cover the host, and a single-label domain is accepted only as the host itself (the
    /// fallback when no ``PublicSuffixList`` is configured, as curl does without libpsl).
    static func acceptsDomain(_ domain: String, forHost host: String) -> Bool {
        guard Cookie.domainMatches(host: host, domain: domain, hostOnly: false) else { return false }
        return domain.contains(".") || domain == host
    }

    private static func isPublicSuffix(_ domain: String, _ list: (any PublicSuffixList)?) -> Bool {
        var domain = Substring(domain)
        while domain.hasSuffix(".") { domain.removeLast() }  // `me.` is the suffix `me`, fully qualified
        guard let list, !domain.isEmpty, !Cookie.isIPAddress(String(domain)) else { return false }
        return list.isPublicSuffix(String(domain))
    }

    /// RFC 6265 §5.1.4 default path: the request path up to, not including, its last `/`.
    static func defaultPath(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// RFC 6265bis §5.6: control characters make the cookie invalid. A tab inside a name, value or path (the
    /// edges are already trimmed) is refused too, as curl does: cookie files separate their fields with tabs.
    private static func containsControlOrTab(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }

    /// An expiry no later than ``maxLifetime`` from `now`; a capped one rounded to the nearest minute.
    private static func capped(_ expiry: Date, now: Date) -> Date {
        let limit = now.addingTimeInterval(maxLifetime)
        guard expiry > limit else { return expiry }
        return Date(timeIntervalSince1970: ((limit.timeIntervalSince1970 + 30) / 60).rounded(.down) * 60)
    }
}
