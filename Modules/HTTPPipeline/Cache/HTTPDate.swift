import FoundationEssentials

/// Parses HTTP dates strictly (RFC 9110 §5.6.7): IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete
/// RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`). Names match
/// case-insensitively; anything else (a `UTC` zone, one-digit hours, missing commas, extra spaces) is invalid.
enum HTTPDate {
    private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date, or `nil` when `text` is not an HTTP date.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false).map { $0.lowercased() }
        if parts.count == 6, let date = imfFixdate(parts) { return date }
        if parts.count == 4 { return rfc850(parts) }
        if parts.count >= 5 { return asctime(parts) }
        return nil
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func imfFixdate(_ parts: [String]) -> Date? {
        guard parts[0].count == 4, parts[0].hasSuffix(","), days.contains(String(parts[0].dropLast())),
            parts[5] == "gmt", let day = number(parts[1], digits: 2), let month = months.firstIndex(of: parts[2]),
            let year = number(parts[3], digits: 4)
        else { return nil }
        return make(year: year, month: month + 1, day: day, time: parts[4])
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`
    private static func rfc850(_ parts: [String]) -> Date? {
        guard parts[0].hasSuffix(","), longDays.contains(String(parts[0].dropLast())), parts[3] == "gmt" else {
            return nil
        }
        let date = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard date.count == 3, let day = number(date[0], digits: 2), let month = months.firstIndex(of: date[1]),
            let shortYear = number(date[2], digits: 2)
        else { return nil }
        // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
        let year = shortYear < 70 ? 2000 + shortYear : 1900 + shortYear
        return make(year: year, month: month + 1, day: day, time: parts[2])
    }

    /// `Sun Nov  6 08:49:37 1994` (a one-digit day is padded with a space).
    private static func asctime(_ parts: [String]) -> Date? {
        var fields = parts
        if fields.count == 6, fields[2].isEmpty { fields.remove(at: 2) }
        guard fields.count == 5, days.contains(fields[0]), let month = months.firstIndex(of: fields[1]),
            let day = number(fields[2], digits: fields[2].count == 1 ? 1 : 2),
            (parts.count == 6) == (fields[2].count == 1),
            let year = number(fields[4], digits: 4)
        else { return nil }
        return make(year: year, month: month + 1, day: day, time: fields[3])
    }

    private static func number(_ text: String, digits: Int) -> Int? {
        guard text.count == digits, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// `08:49:37`, then the date from its parts (days from the civil calendar, proleptic Gregorian).
    private static func make(year: Int, month: Int, day: Int, time: String) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard clock.count == 3, let hour = number(clock[0], digits: 2), let minute = number(clock[1], digits: 2),
            let second = number(clock[2], digits: 2), hour < 24, minute < 60, second < 61, (1...31).contains(day)
        else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
