package import FoundationEssentials

extension URL {
    /// The URL without its `user:password` (and its fragment when `droppingFragment`), for cache keys, logs and
    /// proxy resolvers, which must never see a credential. `self` when there is nothing to drop; `nil` when the URL
    /// cannot be taken apart, so a caller never falls back to the credential-bearing string.
    /// - Parameter droppingFragment: Whether the fragment goes too.
    /// - Returns: The URL without user info, or `nil`.
    package func removingUserInfo(droppingFragment: Bool = false) -> URL? {
        guard user != nil || password != nil || (droppingFragment && fragment != nil) else { return self }
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return nil }
        components.user = nil
        components.password = nil
        if droppingFragment { components.fragment = nil }
        return components.url
    }
}
