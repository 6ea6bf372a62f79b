/// A character encoding for response text (ASIHTTPRequest's `responseEncoding` and `defaultResponseEncoding`).
public enum TextEncoding: Sendable, Hashable {
    /// UTF-8.
    case utf8
    /// ISO-8859-1 (Latin-1); US-ASCII is its subset.
    case isoLatin1
    /// Windows-1252, the superset of Latin-1 that browsers apply to pages labelled ISO-8859-1.
    case windows1252
    /// UTF-16 with a byte-order mark; big-endian when there is none (RFC 2781).
    case utf16
    /// UTF-16, big-endian, without a byte-order mark.
    case utf16BigEndian
    /// UTF-16, little-endian, without a byte-order mark.
    case utf16LittleEndian

    /// The encoding named by a `Content-Type`'s `charset` parameter, if known.
    /// - Parameter contentType: The `Content-Type` value.
    public init?(contentType: String) {
        let parameters = contentType.split(separator: ";").dropFirst()
        guard
            let charset = parameters.lazy.compactMap({ parameter -> Substring? in
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingOWS().lowercased() == "charset" else { return nil }
                return pair[1].trimmingOWS()
            }).first
        else { return nil }
        self.init(charset: String(charset.filter { $0 != "\"" && $0 != "'" }))
    }

    /// The encoding a media type defines for itself, when its `Content-Type` names no charset: UTF-8 for the types
    /// whose specifications make UTF-8 the only or the default encoding.
    ///
    /// Those are JSON (`application/json`, RFC 8259 §8.1) and every `+json` type (RFC 6839), YAML
    /// (`application/yaml` and `+yaml`, RFC 9512), JavaScript (`text/javascript`, `application/javascript`,
    /// RFC 9239), server-sent events (`text/event-stream`), WebVTT (`text/vtt`) and
    /// `application/x-www-form-urlencoded` (WHATWG URL). XML (`application/xml`, `text/xml` and `+xml`, RFC 7303)
    /// follows the document: a UTF-16 byte-order mark, else the `encoding` of its XML declaration, else UTF-8.
    /// Other types, HTML and `text/plain` among them, return `nil`: their default is the caller's
    /// (ASIHTTPRequest's `defaultResponseEncoding`, ISO-8859-1).
    /// - Parameters:
    ///   - contentType: The `Content-Type` value; its parameters are ignored.
    ///   - body: The start of the body, read for XML's byte-order mark and declaration only.
    public init?(impliedBy contentType: String, body: [UInt8] = []) {
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first?.trimmingOWS().lowercased() ?? ""
        switch mediaType {
        case "application/json", "application/yaml", "text/javascript", "application/javascript",
            "text/event-stream", "text/vtt", "application/x-www-form-urlencoded":
            self = .utf8
        case "application/xml", "text/xml":
            self = Self.xmlEncoding(body)
        case _ where mediaType.hasSuffix("+json") || mediaType.hasSuffix("+yaml"):
            self = .utf8
        case _ where mediaType.hasSuffix("+xml"):
            self = Self.xmlEncoding(body)
        default:
            return nil
        }
    }

    /// An XML document's encoding without a charset (XML 1.0 appendix F): a UTF-16 byte-order mark, the
    /// declaration's `encoding` when it names one this type knows, or UTF-8.
    private static func xmlEncoding(_ body: [UInt8]) -> TextEncoding {
        if body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0xFE, 0xFF]) { return .utf16 }
        let start = body.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard body[start...].starts(with: Array("<?xml".utf8)) else { return .utf8 }
        let declaration = Array(body[start...].prefix(200).prefix { $0 != UInt8(ascii: ">") })
        let keyword = Array("encoding".utf8)
        guard let found = declaration.indices.first(where: { declaration[$0...].starts(with: keyword) }) else {
            return .utf8
        }
        let rest = declaration[(found + keyword.count)...].drop { $0 == 0x20 || $0 == 0x09 || $0 == UInt8(ascii: "=") }
        guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return .utf8 }
        let name = String(decoding: rest.dropFirst().prefix { $0 != quote }, as: UTF8.self)
        return TextEncoding(charset: name) ?? .utf8
    }

    /// The encoding for an IANA charset name, case-insensitively, if known.
    /// - Parameter charset: A name such as `utf-8`, `ISO-8859-1` or `windows-1252`.
    public init?(charset: String) {
        switch charset.lowercased() {
        case "utf-8", "utf8": self = .utf8
        case "iso-8859-1", "latin1", "iso8859-1", "iso_8859-1", "l1", "us-ascii", "ascii": self = .isoLatin1
        case "windows-1252", "cp1252", "x-cp1252": self = .windows1252
        case "utf-16", "utf16": self = .utf16
        case "utf-16be": self = .utf16BigEndian
        case "utf-16le": self = .utf16LittleEndian
        default: return nil
        }
    }

    /// Decodes bytes; invalid sequences become U+FFFD.
    /// - Parameter bytes: The bytes.
    /// - Returns: The text.
    public func decode(_ bytes: [UInt8]) -> String {
        switch self {
        case .utf8: String(decoding: bytes, as: UTF8.self)
        case .isoLatin1: String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case .windows1252: String(String.UnicodeScalarView(bytes.map(Self.windows1252Scalar)))
        case .utf16:
            if bytes.starts(with: [0xFF, 0xFE]) {
                Self.decodeUTF16(bytes.dropFirst(2), bigEndian: false)
            } else {
                Self.decodeUTF16(bytes.starts(with: [0xFE, 0xFF]) ? bytes.dropFirst(2) : bytes[...], bigEndian: true)
            }
        case .utf16BigEndian: Self.decodeUTF16(bytes[...], bigEndian: true)
        case .utf16LittleEndian: Self.decodeUTF16(bytes[...], bigEndian: false)
        }
    }

    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2 + 1)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        if index < bytes.endIndex { units.append(0xFFFD) }  // an odd byte left over
        return String(decoding: units, as: UTF16.self)
    }

    /// Windows-1252's characters for 0x80...0x9F; the rest is Latin-1. Undefined bytes map to their C1 control.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]

    private static func windows1252Scalar(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        return Unicode.Scalar(windows1252High[Int(byte - 0x80)])!
    }
}
