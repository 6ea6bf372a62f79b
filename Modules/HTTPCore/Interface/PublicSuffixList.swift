/// Knows which domains are public suffixes (`com`, `co.uk`, `github.io`): names under which anyone can register,
/// so a cookie set for one would reach every site below it (RFC 6265 §5.3 step 5).
///
/// The pipeline's `Set-Cookie` parser asks it for every `Domain` attribute: a cookie for a public suffix is refused,
/// unless the suffix is the response's host itself, when it becomes a host-only cookie. The `PublicSuffix` plug-in
/// answers from libpsl (the list curl and wget use); without a list, the parser refuses only single-label domains.
///
/// ## Implementation requirements
/// - Answer from a maintained list (Mozilla's Public Suffix List), never a hand-written one.
/// - Take a lower-cased domain without a leading or trailing dot, as the parser passes it, and treat the list's
///   wildcard and exception rules as the list defines them (`*.ck` makes `foo.ck` a suffix, `!www.ck` does not).
/// - Be quick and free of I/O: the parser asks while it handles a response. Load the list once, up front.
/// - Be safe to call from many tasks at once.
///
/// ## Implement a custom list
/// ```swift
/// struct Suffixes: PublicSuffixList {
///     let list: Set<String>  // loaded from a copy of public_suffix_list.dat
///     func isPublicSuffix(_ domain: String) -> Bool { list.contains(domain) }
/// }
/// ```
public protocol PublicSuffixList: Sendable {
    /// Whether `domain` is a public suffix.
    /// - Parameter domain: A lower-cased domain without leading or trailing dots, for example `co.uk`.
    /// - Returns: `true` when cookies must not be set for it.
    func isPublicSuffix(_ domain: String) -> Bool
}
