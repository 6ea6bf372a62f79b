/// The one scope-matching rule every ``CredentialStore`` uses (ASIHTTPRequest's session-store matching): a saved
/// scope answers a wanted one only for the same scheme, host, port and target; then an exact realm beats a scope
/// saved without a realm, and a lookup without a realm takes any realm.
///
/// ```swift
/// // In a store that keeps `entries: [(scope: CredentialScope, credential: Credential)]`:
/// func credential(for scope: CredentialScope) -> Credential? {
///     scope.bestMatch(among: entries, scope: \.scope)?.credential
/// }
/// ```
extension CredentialScope {
    /// How well a saved scope answers a lookup; a better match compares greater.
    public enum Match: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The lookup has no realm and the saved scope has one: any realm answers a realm-less lookup.
        case anyRealm = 0
        /// The lookup has a realm and the saved scope has none: a credential saved before any challenge (or
        /// for the whole server) answers every realm of it.
        case realmless = 1
        /// The realms are the same (or both absent).
        case exact = 2

        /// Orders the matches, worst first.
        /// - Parameters:
        ///   - lhs: A match.
        ///   - rhs: Another match.
        /// - Returns: Whether `lhs` is the worse one.
        public static func < (lhs: Match, rhs: Match) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `anyRealm`, `realmless` or `exact`.
        public var description: String {
            switch self {
            case .anyRealm: "anyRealm"
            case .realmless: "realmless"
            case .exact: "exact"
            }
        }
    }

    /// How well this saved scope answers a lookup for `wanted`.
    /// - Parameter wanted: The scope being looked up.
    /// - Returns: The match, or `nil` when the scheme, host, port or target differ, or both realms are known
    ///   and differ. A proxy scope never answers a server lookup, nor the other way round.
    public func match(against wanted: CredentialScope) -> Match? {
        guard target == wanted.target, port == wanted.port, host == wanted.host, scheme == wanted.scheme else {
            return nil
        }
        switch (realm, wanted.realm) {
        case let (saved, asked) where saved == asked: return .exact
        case (nil, _): return .realmless
        case (_, nil): return .anyRealm
        default: return nil
        }
    }

    /// The candidate whose saved scope best answers this (wanted) scope; among equal matches, the first.
    /// - Parameters:
    ///   - candidates: The saved entries, in the store's order (oldest first keeps ASIHTTPRequest's "first
    ///     matching entry").
    ///   - scope: The saved scope of an entry.
    /// - Returns: The best entry, or `nil` when none matches.
    public func bestMatch<Candidates: Sequence>(
        among candidates: Candidates,
        scope: (Candidates.Element) throws -> CredentialScope
    ) rethrows -> Candidates.Element? {
        var best: (element: Candidates.Element, match: Match)?
        for candidate in candidates {
            guard let match = try scope(candidate).match(against: self) else { continue }
            if let best, best.match >= match { continue }
            best = (candidate, match)
            if match == .exact { break }
        }
        return best?.element
    }

    /// The saved scope that best answers this (wanted) scope; among equal matches, the first.
    /// - Parameter scopes: The saved scopes, in the store's order.
    /// - Returns: The best scope, or `nil` when none matches.
    public func bestMatch<Scopes: Sequence<CredentialScope>>(among scopes: Scopes) -> CredentialScope? {
        bestMatch(among: scopes, scope: { $0 })
    }
}
