extension Cookie {
    /// A cookie's `SameSite` attribute (RFC 6265bis §4.1.2.7), kept as received.
    ///
    /// An HTTP client has no notion of a "site" that started a request, so the value is stored and written back
    /// (for example to a cookie file) but does not change which requests get the cookie.
    public enum SameSite: String, Sendable, Hashable, CaseIterable {
        /// `SameSite=Strict`.
        case strict = "Strict"
        /// `SameSite=Lax`.
        case lax = "Lax"
        /// `SameSite=None`.
        case none = "None"

        /// Parses an attribute value, case-insensitively; `nil` for anything else (the attribute is then ignored).
        /// - Parameter text: The value, for example `lax`.
        public init?(attribute text: some StringProtocol) {
            switch text.lowercased() {
            case "strict": self = .strict
            case "lax": self = .lax
            case "none": self = .none
            default: return nil
            }
        }
    }
}
