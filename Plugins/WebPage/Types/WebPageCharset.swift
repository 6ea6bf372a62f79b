/// The character encoding of a page or stylesheet, as far as finding and rewriting URLs needs it.
///
/// Rewriting never re-encodes a document: only the URLs it changes are written, and they are ASCII. The charset
/// decides how the bytes of a URL the page holds are read (a `é` in a Windows-1252 page is one byte `E9`), before
/// the URL is sent as UTF-8 percent-encoding.
public enum WebPageCharset: Sendable, Hashable {
    /// UTF-8.
    case utf8
    /// Windows-1252, which HTML uses for the labels `iso-8859-1`, `latin1`, `us-ascii` and `windows-1252`.
    case windows1252
    /// Another ASCII-compatible charset: ASCII is read as ASCII and every other byte as the Latin-1 character of
    /// the same value.
    case other(String)

    /// The charset a label names (the `charset` parameter of `Content-Type`, `<meta charset>`, `@charset`).
    /// - Parameter label: The label, in any case, with spaces around it or not.
    public init(label: String) {
        let name = label.trimmingASCIISpaces().lowercased()
        switch name {
        case "utf-8", "utf8", "unicode-1-1-utf-8": self = .utf8
        case "iso-8859-1", "iso8859-1", "latin1", "l1", "us-ascii", "ascii", "windows-1252", "cp1252", "x-cp1252",
            "iso_8859-1", "cp819", "ibm819":
            self = .windows1252
        default: self = .other(name)
        }
    }

    /// The charset of a `Content-Type` field's `charset` parameter, or `nil` when it has none.
    /// - Parameter contentType: The field's value.
    public init?(contentType: String) {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, String(pair[0]).trimmingASCIISpaces().lowercased() == "charset" else { continue }
            var value = String(pair[1]).trimmingASCIISpaces()
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            guard !value.isEmpty else { return nil }
            self.init(label: value)
            return
        }
        return nil
    }

    /// The label to write in a `data:` URI's media type.
    public var label: String {
        switch self {
        case .utf8: "utf-8"
        case .windows1252: "windows-1252"
        case .other(let name): name
        }
    }

    /// Decodes bytes of this charset; invalid UTF-8 becomes U+FFFD.
    /// - Parameter bytes: The bytes.
    /// - Returns: The text.
    public func decode(_ bytes: some Collection<UInt8>) -> String {
        switch self {
        case .utf8:
            return String(decoding: bytes, as: UTF8.self)
        case .windows1252, .other:
            var scalars = String.UnicodeScalarView()
            let table = self == .windows1252
            for byte in bytes {
                if table, byte >= 0x80, byte < 0xA0, let mapped = Unicode.Scalar(windows1252High[Int(byte - 0x80)]) {
                    scalars.append(mapped)
                } else {
                    scalars.append(Unicode.Scalar(byte))
                }
            }
            return String(scalars)
        }
    }
}

/// Windows-1252's characters for 0x80–0x9F (unassigned bytes keep their C1 value).
private let windows1252High: [UInt32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
    0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
    0x0153, 0x9D, 0x017E, 0x0178,
]

extension String {
    func trimmingASCIISpaces() -> String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
