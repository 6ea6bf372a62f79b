import FoundationEssentials
import HTTPCore

extension SetCookieParser {
    /// The attributes after a `Set-Cookie`'s name-value pair (RFC 6265 §5.2.1–5.2.6), the last valid one of each
    /// name kept.
    struct Attributes {
        /// The `Max-Age` expiry, not yet clamped; wins over ``expires``.
        var maxAge: Date?
        /// The `Expires` date as parsed, not yet clamped.
        var expires: Date?
        /// The `Domain`, lower-cased, without its leading dot; `nil` when none (or only empty ones) were given,
        /// `""` for `Domain=.` (a host-only cookie).
        var domain: String?
        /// ``domain`` with the case of its letters as sent (written to cookie files, as curl keeps it).
        var spelledDomain: String?
        /// The `Path`, or `nil` for the default path.
        var path: String?
        var isSecure = false
        var isHTTPOnly = false
        var sameSite: Cookie.SameSite?

        /// Parses the attributes.
        /// - Parameters:
        ///   - text: Everything after the first `;`.
        ///   - url: The response URL, for the default path.
        ///   - now: The time of receipt, for `Max-Age`.
        init(_ text: Substring, url: URL, now: Date) {
            for attribute in text.split(separator: ";", omittingEmptySubsequences: false) {
                let key: Substring
                let value: Substring
                if let equals = attribute.firstIndex(of: "=") {
                    key = attribute[..<equals].trimmingOWS()
                    value = attribute[attribute.index(after: equals)...].trimmingOWS()
                } else {
                    key = attribute.trimmingOWS()
                    value = ""
                }
                guard value.utf8.count <= SetCookieParser.maxAttributeLength else { continue }
                apply(key.lowercased(), value, url: url, now: now)
            }
        }

        private mutating func apply(_ key: String, _ value: Substring, url: URL, now: Date) {
            switch key {
            case "expires":
                if value.utf8.count < Self.maxDateLength, let date = CookieDateParser.date(from: String(value)) {
                    expires = date
                }
            case "max-age":
                if let seconds = Self.deltaSeconds(value) {
                    maxAge = seconds <= 0
                        ? Date(timeIntervalSince1970: 0)
                        : now.addingTimeInterval(TimeInterval(seconds))  // capped by the parser
                }
            case "domain":
                var spelling = String(value)
                if spelling.hasPrefix(".") { spelling.removeFirst() }
                // `.` alone leaves "": a host-only cookie
                if !value.isEmpty { (domain, spelledDomain) = (spelling.lowercased(), spelling) }
            case "path":
                path = value.hasPrefix("/") ? String(value) : nil
            case "secure":
                isSecure = true
            case "httponly":
                isHTTPOnly = true
            case "samesite":
                sameSite = Cookie.SameSite(attribute: value)
            default:
                break
            }
        }

        /// The longest `Expires` value read as a date (curl's limit; real dates are about 30 characters).
        static let maxDateLength = 80

        /// RFC 6265 §5.2.2: an optional `-` then digits only; anything else is ignored. Too many digits saturate.
        static func deltaSeconds(_ text: Substring) -> Int64? {
            let negative = text.hasPrefix("-")
            let digits = negative ? text.dropFirst() : text
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            let magnitude = Int64(digits) ?? Int64.max
            return negative ? -magnitude : magnitude
        }
    }
}
