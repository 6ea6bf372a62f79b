public import FoundationEssentials

/// One known HSTS host (RFC 6797 §5): requests to it, and to its subdomains when ``includesSubdomains`` is set,
/// go over `https` until ``expires``.
public struct HSTSEntry: Sendable, Hashable {
    /// The host name, lower-cased, without a trailing dot.
    public var host: String
    /// Whether the policy covers every subdomain of ``host`` too (`includeSubDomains`).
    public var includesSubdomains: Bool
    /// When the policy ends: the time the field was received plus its `max-age`. `Date.distantFuture` for no end
    /// (curl's `"unlimited"`).
    public var expires: Date

    /// Creates an entry.
    /// - Parameters:
    ///   - host: The host name; lower-cased, and a trailing dot removed.
    ///   - includesSubdomains: Whether subdomains are covered.
    ///   - expires: When the policy ends.
    public init(host: String, includesSubdomains: Bool, expires: Date) {
        self.host = HSTSEntry.normalized(host)
        self.includesSubdomains = includesSubdomains
        self.expires = expires
    }

    /// Whether this entry upgrades requests to `host` at `now` (RFC 6797 §8.2): the host itself (a congruent
    /// match), or a subdomain of it when ``includesSubdomains`` is set (a superdomain match).
    /// - Parameters:
    ///   - host: A host name; compared lower-cased, without a trailing dot.
    ///   - now: The current time.
    /// - Returns: Whether the policy applies.
    public func covers(_ host: String, at now: Date) -> Bool {
        guard expires > now else { return false }
        let host = HSTSEntry.normalized(host)
        if host == self.host { return true }
        return includesSubdomains && host.hasSuffix("." + self.host)
    }

    /// `host` lower-cased, without a trailing dot.
    /// - Parameter host: A host name.
    /// - Returns: The form entries are kept and compared in.
    public static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        while host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
