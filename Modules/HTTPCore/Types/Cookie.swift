public import FoundationEssentials

/// A cookie as stored by a ``CookieStore`` (RFC 6265 §5.3 storage model).
///
/// The pipeline parses `Set-Cookie` into cookies and asks stores for the ones to send; ``matches(_:at:)`` is the
/// one rule every store applies. The `description` never prints the value.
public struct Cookie: Sendable, Hashable, CustomStringConvertible {
    /// The name.
    public var name: String
    /// The value, sent verbatim.
    public var value: String
    /// The domain, lower-cased, without a leading dot: what every comparison uses.
    public var domain: String
    /// Whether only `domain` itself matches (no `Domain` attribute was given), not its subdomains.
    public var isHostOnly: Bool
    /// The path; the cookie is sent for this path and below.
    public var path: String
    /// When the cookie expires; `nil` for a session cookie.
    public var expires: Date?
    /// Whether the cookie is sent only over `https`.
    public var isSecure: Bool
    /// Whether the cookie is hidden from scripts (kept for completeness; HTTP clients send it normally).
    public var isHTTPOnly: Bool
    /// The `SameSite` attribute as received; `nil` when none was given.
    public var sameSite: SameSite?
    /// When the cookie was first stored; older cookies are sent first.
    public var created: Date
    /// The domain's spelling when it differs from ``domain`` only in case.
    private var domainCase: String?

    /// The domain as the `Domain` attribute or the cookie file spelled it: ``domain`` with the case of its
    /// letters kept, without a leading dot. Cookie files write it (as curl does); comparisons use ``domain``.
    /// Setting it sets ``domain`` to its lower-cased form; setting ``domain`` alone drops a spelling that no longer
    /// matches it.
    public var spelledDomain: String {
        get { domainCase.flatMap { $0.lowercased() == domain ? $0 : nil } ?? domain }
        set {
            var spelling = newValue
            if spelling.hasPrefix(".") { spelling.removeFirst() }
            domain = spelling.lowercased()
            domainCase = spelling == domain ? nil : spelling
        }
    }

    /// Creates a cookie.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    ///   - domain: The domain; a leading dot is dropped and the rest lower-cased (its case is kept in
    ///     ``spelledDomain``).
    ///   - isHostOnly: Whether only the exact host matches.
    ///   - path: The path.
    ///   - expires: The expiry date, or `nil` for a session cookie.
    ///   - isSecure: Whether it is sent only over `https`.
    ///   - isHTTPOnly: Whether it is hidden from scripts.
    ///   - sameSite: The `SameSite` attribute, if any.
    ///   - created: When it was first stored.
    public init(
        name: String,
        value: String,
        domain: String,
        isHostOnly: Bool = true,
        path: String = "/",
        expires: Date? = nil,
        isSecure: Bool = false,
        isHTTPOnly: Bool = false,
        sameSite: SameSite? = nil,
        created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = ""
        self.isHostOnly = isHostOnly
        self.path = path
        self.expires = expires
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.created = created
        self.spelledDomain = domain
    }

    /// A cookie's identity: a new cookie with the same name, domain and path replaces the old one.
    public struct Identity: Sendable, Hashable {
        /// The name.
        public var name: String
        /// The domain.
        public var domain: String
        /// The path.
        public var path: String
    }

    /// The name, domain and path that identify the cookie in a store.
    public var identity: Identity { Identity(name: name, domain: domain, path: path) }

    /// Whether the cookie has expired at `date`.
    /// - Parameter date: The time to check.
    /// - Returns: `true` when the expiry date is at or before `date`.
    public func isExpired(at date: Date) -> Bool {
        guard let expires else { return false }
        return expires <= date
    }

    /// Whether the cookie is to be sent with a request to `url` at `date` (RFC 6265 §5.4): not expired, the
    /// host domain-matches, the path path-matches, and `https` when secure.
    /// - Parameters:
    ///   - url: The request URL.
    ///   - date: The time of the request.
    /// - Returns: Whether to send it.
    public func matches(_ url: URL, at date: Date) -> Bool {
        guard !isExpired(at: date), let host = url.host(percentEncoded: false)?.lowercased() else { return false }
        if isSecure && url.scheme?.lowercased() != "https" { return false }
        guard Cookie.domainMatches(host: host, domain: domain, hostOnly: isHostOnly) else { return false }
        return Cookie.pathMatches(requestPath: url.path(percentEncoded: true), cookiePath: path)
    }

    /// RFC 6265 §5.1.3 domain matching.
    /// - Parameters:
    ///   - host: The request host, lower-cased.
    ///   - domain: The cookie domain, lower-cased.
    ///   - hostOnly: Whether only an exact match counts.
    /// - Returns: Whether the host matches.
    public static func domainMatches(host: String, domain: String, hostOnly: Bool) -> Bool {
        if host == domain { return true }
        if hostOnly { return false }
        return host.hasSuffix("." + domain) && !Cookie.isIPAddress(host)
    }

    /// RFC 6265 §5.1.4 path matching.
    /// - Parameters:
    ///   - requestPath: The request's path; empty means `/`.
    ///   - cookiePath: The cookie's path.
    /// - Returns: Whether the path matches.
    public static func pathMatches(requestPath: String, cookiePath: String) -> Bool {
        let requestPath = requestPath.isEmpty ? "/" : requestPath
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).first == "/"
    }

    package static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0.isNumber || $0 == "." })
    }

    /// The name, domain and path; the value is not printed.
    public var description: String {
        "Cookie(\(name)=<redacted>; domain=\(isHostOnly ? "" : ".")\(domain); path=\(path)\(isSecure ? "; secure" : ""))"
    }
}
