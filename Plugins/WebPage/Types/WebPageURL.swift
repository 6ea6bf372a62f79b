public import FoundationEssentials

/// How a reference's text turns into a URL to fetch, as a browser resolves it.
public enum WebPageURL {
    /// What a reference's text resolves to.
    public enum Resolution: Sendable, Hashable {
        /// Leave it as it is: empty, fragment-only (`#top`), or another scheme (`data:`, `mailto:`,
        /// `javascript:`…).
        case untouched
        /// An `http` or `https` URL, without its fragment, and the fragment (without `#`) if there was one.
        case http(URL, fragment: String?)
    }

    /// Resolves a reference against a base URL.
    ///
    /// As a browser does: ASCII spaces around the text are dropped and tabs and line breaks inside it removed,
    /// `\` is `/`, and every byte outside URL syntax (spaces, non-ASCII characters as UTF-8, quotes) is
    /// percent-encoded.
    /// - Parameters:
    ///   - text: The reference as the document holds it (decoded).
    ///   - base: The document's final URL, or its `<base href>` resolved against it.
    /// - Returns: The resolution.
    public static func resolve(_ text: String, against base: URL) -> Resolution {
        // Bytes, not Characters: a page can hold hundreds of thousands of references.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            bytes.append(byte == UInt8(ascii: "\\") ? UInt8(ascii: "/") : byte)
        }
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        guard start < end, bytes[start] != UInt8(ascii: "#") else { return .untouched }
        let reference = bytes[start..<end]
        if let scheme = scheme(of: reference), scheme != "http", scheme != "https" { return .untouched }
        var fragment: String?
        var path = reference
        if let hash = reference.firstIndex(of: UInt8(ascii: "#")) {
            fragment = percentEncoded(String(decoding: reference[(hash + 1)...], as: UTF8.self))
            path = reference[..<hash]
        }
        guard
            let url = URL(string: percentEncoded(String(decoding: path, as: UTF8.self)), relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host,
            !host.isEmpty
        else { return .untouched }
        return .http(url, fragment: fragment)
    }

    /// The scheme of an absolute reference (a letter, then letters, digits and `+-.`, before the first `:`),
    /// lowercased.
    static func scheme(of reference: ArraySlice<UInt8>) -> String? {
        guard let colon = reference.firstIndex(of: UInt8(ascii: ":")), colon > reference.startIndex,
            isASCIILetter(reference[reference.startIndex])
        else { return nil }
        let candidate = reference[..<colon]
        guard
            candidate.allSatisfy({
                isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ".")
            })
        else { return nil }
        return String(decoding: candidate.map(asciiLower), as: UTF8.self)
    }

    /// Percent-encodes every byte that is not URL syntax: controls, space, `"<>\^`{|}`, and non-ASCII (as UTF-8).
    /// `%` is kept, so text already encoded stays as it is.
    /// - Parameter text: The text.
    /// - Returns: ASCII text.
    public static func percentEncoded(_ text: String) -> String {
        guard text.utf8.contains(where: needsEncoding) else { return text }
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            if needsEncoding(byte) {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func needsEncoding(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, 0x7F...0xFF, UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"),
            UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"),
            UInt8(ascii: "'"):
            true
        default: false
        }
    }

    /// The URL with its fragment (when there is one) appended.
    /// - Parameters:
    ///   - url: The URL.
    ///   - fragment: The fragment, without `#`.
    /// - Returns: The text.
    public static func text(_ url: URL, fragment: String?) -> String {
        url.absoluteString + (fragment.map { "#" + $0 } ?? "")
    }
}
