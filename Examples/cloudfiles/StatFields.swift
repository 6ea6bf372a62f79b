import HTTPCore

/// A head's fields as swiftclient sees them (lower-case names, in the server's order), and `swift stat`'s layout.
struct StatFields {
    /// Lower-case name and value, in order.
    let pairs: [(String, String)]

    init(_ fields: HTTPFields) {
        pairs = fields.map { ($0.name.canonicalName.lowercased(), $0.value) }
    }

    /// The value of a lower-case name.
    subscript(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }

    /// swiftclient's `headers_to_items`: metadata first as `Meta Key`, then the other fields title-cased.
    func items(metaPrefix: String, excluding: Set<String>, excludingPrefix: String? = nil) -> [(String, String)] {
        var meta = [(String, String)]()
        var other = [(String, String)]()
        for (name, value) in pairs where !excluding.contains(name) {
            if let excludingPrefix, name.hasPrefix(excludingPrefix) { continue }
            if name.hasPrefix(metaPrefix) {
                meta.append(("Meta " + Self.title(String(name.dropFirst(metaPrefix.count))), value))
            } else {
                other.append((Self.title(name), value))
            }
        }
        return meta + other
    }

    /// Python's `str.title()` for ASCII field names: upper case after anything that is not a letter.
    static func title(_ text: String) -> String {
        var result = ""
        var afterLetter = false
        for character in text {
            result += afterLetter ? character.lowercased() : character.uppercased()
            afterLetter = character.isLetter
        }
        return result
    }

    /// `%{width}s: %s`, right-aligned to the longest key, trailing spaces trimmed.
    static func print(_ items: [(String, String)], to output: Output) {
        let width = items.map(\.0.count).max() ?? 0
        for (key, value) in items {
            var line = pad(key, width) + ": " + value
            while line.last == " " { line.removeLast() }
            output.line(line)
        }
    }
}
