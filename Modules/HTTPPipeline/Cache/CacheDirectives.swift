import HTTPCore

/// The directives of `Cache-Control` (or `Pragma`) field lines: lower-cased names, with their argument unquoted.
///
/// Commas inside a quoted string do not split directives, so `foo="max-age=1, x"` is one directive. When a name
/// appears twice, the first wins.
struct CacheDirectives {
    private(set) var values: [String: String?] = [:]

    init(_ lines: [String]) {
        for line in lines {
            for item in Self.split(line) { add(item) }
        }
    }

    init(_ fields: HTTPFields, _ name: HTTPField.Name) {
        self.init(fields[values: name])
    }

    func contains(_ name: String) -> Bool { values[name] != nil }

    /// A directive's argument (`nil` when absent or given without a value).
    func argument(_ name: String) -> String? { values[name] ?? nil }

    /// A delta-seconds argument: digits only (quotes allowed), capped at 2^31 (RFC 9111 §1.2.2). `nil` when the
    /// directive is absent; `.invalid` when present but not a non-negative integer.
    func seconds(_ name: String) -> Seconds? {
        guard let entry = values[name] else { return nil }
        guard let text = entry, !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .invalid }
        return .value(Self.cappedSeconds(text))
    }

    enum Seconds: Equatable {
        case value(Int)
        case invalid
    }

    static func cappedSeconds(_ digits: String) -> Int {
        let trimmed = digits.drop { $0 == "0" }
        if trimmed.count > 10 { return 1 << 31 }
        return min(Int(trimmed) ?? 0, 1 << 31)
    }

    private mutating func add(_ item: Substring) {
        let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = pair[0].trimmingOWS().lowercased()
        guard !name.isEmpty, values[name] == nil else { return }
        guard pair.count == 2 else {
            values[name] = .some(nil)
            return
        }
        var argument = pair[1].trimmingOWS()
        if argument.count >= 2, argument.first == "\"", argument.last == "\"" {
            argument = argument.dropFirst().dropLast()
        }
        values[name] = .some(String(argument))
    }

    /// Splits a field line at commas outside quoted strings.
    private static func split(_ line: String) -> [Substring] {
        var items: [Substring] = []
        var start = line.startIndex
        var quoted = false
        var escaped = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                items.append(line[start..<index])
                start = line.index(after: index)
            }
            index = line.index(after: index)
        }
        items.append(line[start...])
        return items
    }
}
