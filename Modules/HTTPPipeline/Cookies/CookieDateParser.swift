public import FoundationEssentials

/// Parses dates in cookies and HTTP headers with RFC 6265 §5.1.1's tolerant algorithm.
///
/// Accepts every format servers send: RFC 1123 (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850
/// (`Sunday, 06-Nov-94 08:49:37 GMT`), asctime (`Sun Nov  6 08:49:37 1994`) and ASIHTTPRequest's variants
/// without weekday or seconds.
public enum CookieDateParser {
    /// Parses a date.
    /// - Parameter text: The date text.
    /// - Returns: The date, or `nil` when the text is not a valid date.
    public static func date(from text: String) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(of: text) {
            if time == nil, let parsed = parseTime(token) {
                time = parsed
            } else if day == nil, let value = leadingDigits(token, min: 1, max: 2) {
                day = value
            } else if month == nil, let value = parseMonth(token) {
                month = value
            } else if year == nil, let value = leadingDigits(token, min: 2, max: 4) {
                year = value
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        guard day <= daysInMonth(month, year: year) else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func tokens(of text: String) -> [Substring] {
        // Delimiters: %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E (RFC 6265 §5.1.1).
        text.split { character in
            guard let ascii = character.asciiValue else { return false }
            return ascii == 0x09 || (0x20...0x2F).contains(ascii) || (0x3B...0x40).contains(ascii)
                || (0x5B...0x60).contains(ascii) || (0x7B...0x7E).contains(ascii)
        }
    }

    private static func leadingDigits(_ token: Substring, min: Int, max: Int) -> Int? {
        let digits = token.prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= min, digits.count <= max else { return nil }
        if digits.count < token.count, token[digits.endIndex].isNumber { return nil }
        return Int(digits)
    }

    private static func parseTime(_ token: Substring) -> (Int, Int, Int)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let hour = leadingDigits(parts[0], min: 1, max: 2), parts[0].count <= 2,
            let minute = leadingDigits(parts[1], min: 1, max: 2), parts[1].count <= 2,
            let second = leadingDigits(parts[2], min: 1, max: 2)
        else { return nil }
        return (hour, minute, second)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func parseMonth(_ token: Substring) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = token.prefix(3).lowercased()
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date (proleptic Gregorian), after Howard Hinnant's `days_from_civil`.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
