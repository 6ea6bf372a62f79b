import HTTPCore

/// The canonical forms of Signature Version 4: URI encoding, the canonical URI (normalized or, for S3, not),
/// the canonical query string and the canonical headers.
enum SigV4Canonical {
    /// Percent-encodes every byte but the unreserved ones (`A-Z a-z 0-9 - . _ ~`), with uppercase hex; `/` is
    /// kept when `keepsSlash`.
    static func encode(_ bytes: some Sequence<UInt8>, keepsSlash: Bool) -> String {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepsSlash:
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0f)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes; anything else, including a malformed escape, stays as it is.
    static func decode(_ text: some StringProtocol) -> [UInt8] { Hex.percentDecoded(text) }

    /// The canonical URI of a path as sent: decoded once, dot segments and empty segments removed when
    /// `normalizes` (every service but S3), then encoded once with `/` kept.
    static func uri(path: String, normalizes: Bool) -> String {
        let decoded = decode(path.isEmpty ? "/" : path)
        guard normalizes else { return encode(decoded, keepsSlash: true) }
        var segments = [ArraySlice<UInt8>]()
        let parts = decoded.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for part in parts {
            if part.isEmpty || part.elementsEqual(".".utf8) { continue }
            if part.elementsEqual("..".utf8) {
                if !segments.isEmpty { segments.removeLast() }
                continue
            }
            segments.append(part)
        }
        let last = parts.last ?? []
        let trailingSlash = last.isEmpty || last.elementsEqual(".".utf8) || last.elementsEqual("..".utf8)
        guard !segments.isEmpty else { return "/" }
        var out = [UInt8]()
        for segment in segments {
            out.append(UInt8(ascii: "/"))
            out.append(contentsOf: segment)
        }
        if trailingSlash { out.append(UInt8(ascii: "/")) }
        return encode(out, keepsSlash: true)
    }

    /// The parameters of a query as sent, decoded: `a=1&b` gives `[("a", "1"), ("b", "")]`.
    static func parameters(_ query: String?) -> [(name: [UInt8], value: [UInt8])] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return (decode(pair[..<equals]), decode(pair[pair.index(after: equals)...]))
            }
            return (decode(pair), [])
        }
    }

    /// The canonical query string: every parameter encoded, sorted by name and then value.
    static func query(_ parameters: [(name: [UInt8], value: [UInt8])]) -> String {
        parameters
            .map { (encode($0.name, keepsSlash: false), encode($0.value, keepsSlash: false)) }
            .sorted {
                $0.0 == $1.0
                    ? $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) : $0.0.utf8.lexicographicallyPrecedes($1.0.utf8)
            }
            .map { $0.0 + "=" + $0.1 }
            .joined(separator: "&")
    }

    /// The canonical headers (`name:value\n` each, names lowercased and sorted, values trimmed with inner runs of
    /// whitespace collapsed, repeated fields joined with commas) and the signed-headers list.
    static func headers(_ fields: [(name: String, value: String)]) -> (canonical: String, signed: String) {
        var values = [String: [String]]()
        for field in fields {
            values[field.name.lowercased(), default: []].append(collapse(field.value))
        }
        let names = values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let canonical = names.map { $0 + ":" + values[$0]!.joined(separator: ",") + "\n" }.joined()
        return (canonical, names.joined(separator: ";"))
    }

    /// Trims a value and collapses each run of spaces, tabs and line breaks inside it to one space.
    static func collapse(_ value: String) -> String {
        var out = [UInt8]()
        var pendingSpace = false
        for byte in value.utf8 {
            if byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(0x20) }
                pendingSpace = false
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
