import HTTPCore

/// Character references in attribute values: what a URL in `href="a?x=1&amp;y=2"` really is, and how a rewritten
/// value is written back.
enum HTMLEntities {
    private static let named: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
    ]

    /// Decodes numeric references and the named ones URLs use, as an attribute value is decoded: a name without
    /// `;` followed by `=` or an alphanumeric character stays as it is.
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let chars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < chars.count {
            guard chars[i] == "&" else {
                out.append(chars[i])
                i += 1
                continue
            }
            if let (scalar, length) = reference(in: chars, at: i) {
                out.append(contentsOf: String(scalar).unicodeScalars)
                i += length
            } else {
                out.append(chars[i])
                i += 1
            }
        }
        return String(out)
    }

    private static func reference(in chars: [Unicode.Scalar], at start: Int) -> (Character, Int)? {
        var i = start + 1
        if i < chars.count, chars[i] == "#" {
            i += 1
            let hex = i < chars.count && (chars[i] == "x" || chars[i] == "X")
            if hex { i += 1 }
            var value: UInt32 = 0
            var digits = 0
            while i < chars.count, chars[i].isASCII, let digit = Hex.value(of: UInt8(chars[i].value)),
                hex || digit < 10
            {
                value = min(value &* (hex ? 16 : 10) &+ UInt32(digit), 0x110000)
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if i < chars.count, chars[i] == ";" { i += 1 }
            let scalar = value == 0 || value > 0x10FFFF ? "\u{FFFD}" : Unicode.Scalar(value) ?? "\u{FFFD}"
            return (Character(scalar), i - start)
        }
        var name = ""
        while i < chars.count, chars[i].isASCII, chars[i].properties.isAlphabetic, name.count < 8 {
            name.unicodeScalars.append(chars[i])
            i += 1
        }
        guard let character = named[name] else { return nil }
        if i < chars.count, chars[i] == ";" { return (character, i + 1 - start) }
        guard ["amp", "lt", "gt", "quot"].contains(name) else { return nil }
        if i < chars.count,
            chars[i] == "=" || (chars[i].isASCII && chars[i].properties.isAlphabetic)
                || ("0"..."9").contains(chars[i])
        {
            return nil
        }
        return (character, i - start)
    }

    /// Writes a value for an attribute quoted with `quote` (`"` is used for an unquoted one): `&` and the quote as
    /// references, and characters outside ASCII as UTF-8 in a UTF-8 page and as numeric references otherwise.
    static func encode(_ value: String, quote: UInt8, charset: WebPageCharset) -> [UInt8] {
        var out: [UInt8] = []
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += Array("&amp;".utf8)
            case "\"" where quote == UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case "'" where quote == UInt8(ascii: "'"): out += Array("&#39;".utf8)
            default:
                if scalar.isASCII {
                    out.append(UInt8(scalar.value))
                } else if charset == .utf8 {
                    out += Array(String(scalar).utf8)
                } else {
                    out += Array("&#\(scalar.value);".utf8)
                }
            }
        }
        return out
    }
}
