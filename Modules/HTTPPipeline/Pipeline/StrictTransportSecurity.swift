/// Parses a `Strict-Transport-Security` field value (RFC 6797 §6.1): `max-age` (required, delta-seconds, may be
/// quoted) and `includeSubDomains`, names case-insensitive, unknown directives ignored. A field with a directive
/// twice, a missing or malformed `max-age`, or a value on `includeSubDomains` is invalid and ignored as a whole
/// (§6.1: "UAs MUST ignore" such a field).
enum StrictTransportSecurity {
    /// What a valid field says.
    struct Directives: Equatable {
        /// `max-age`, in seconds; 0 removes the host.
        var maxAge: Int64
        /// Whether `includeSubDomains` was present.
        var includesSubdomains: Bool
    }

    /// The longest `max-age` kept: about 100 years; a larger number is cut to it rather than overflowing a date.
    static let maxAgeLimit: Int64 = 100 * 365 * 86_400

    /// The field's directives, or `nil` when it is invalid.
    /// - Parameter value: The field value.
    /// - Returns: The directives.
    static func parse(_ value: String) -> Directives? {
        var maxAge: Int64?
        var includesSubdomains = false
        var seen: Set<String> = []
        for part in value.split(separator: ";", omittingEmptySubsequences: false) {
            let directive = part.trimmingOWS()
            if directive.isEmpty { continue }
            let name: String
            var argument: Substring?
            if let equals = directive.firstIndex(of: "=") {
                name = directive[..<equals].trimmingOWS().lowercased()
                argument = directive[directive.index(after: equals)...].trimmingOWS()
            } else {
                name = directive.lowercased()
            }
            guard !name.isEmpty, seen.insert(name).inserted else { return nil }
            switch name {
            case "max-age":
                guard var text = argument else { return nil }
                if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
                guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
                maxAge = Int64(text).map { min($0, maxAgeLimit) } ?? maxAgeLimit
            case "includesubdomains":
                guard argument == nil else { return nil }
                includesSubdomains = true
            default:
                continue
            }
        }
        return maxAge.map { Directives(maxAge: $0, includesSubdomains: includesSubdomains) }
    }
}
