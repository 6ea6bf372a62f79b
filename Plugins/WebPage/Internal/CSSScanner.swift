import HTTPCore

/// A URL in CSS: the bytes to replace, how they are quoted, and the URL text with CSS escapes resolved.
struct CSSURLToken: Sendable {
    /// The URL's bytes inside the quotes, or the unquoted URL without the spaces around it.
    var range: Range<Int>
    /// `"` or `'`, or `nil` for an unquoted `url(…)`.
    var quote: UInt8?
    /// The URL's bytes with escapes resolved (UTF-8 for `\XX` escapes, the source's bytes otherwise).
    var value: [UInt8]
    /// Whether it is the target of an `@import` (a stylesheet), not a resource such as an image or font.
    var isImport: Bool
}

/// Finds `url(…)` in its three quoting styles and both forms of `@import` in CSS bytes, skipping comments and
/// strings; never fails. It works on bytes, so any ASCII-compatible charset scans the same.
struct CSSScanner {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func urls() -> [CSSURLToken] {
        var found: [CSSURLToken] = []
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if c == UInt8(ascii: "/"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "*") {
                i = skipComment(from: i + 2)
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                i = readString(from: i).end
            } else if c == UInt8(ascii: "\\") {
                i += 2
            } else if c == UInt8(ascii: "@"), matches("@import", at: i) {
                var j = skipSpaceAndComments(from: i + 7)
                if j < n, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") {
                    let string = readString(from: j)
                    if string.closed {
                        found.append(
                            CSSURLToken(
                                range: (j + 1)..<(string.end - 1), quote: bytes[j], value: string.value, isImport: true)
                        )
                    }
                    j = string.end
                } else if matches("url(", at: j), let token = readURL(from: j + 4, isImport: true) {
                    found.append(token.token)
                    j = token.end
                }
                i = max(j, i + 7)
            } else if (c | 0x20) == UInt8(ascii: "u"), matches("url(", at: i), i == 0 || !isNameByte(bytes[i - 1]) {
                if let token = readURL(from: i + 4, isImport: false) {
                    found.append(token.token)
                    i = token.end
                } else {
                    i += 4
                }
            } else {
                i += 1
            }
        }
        return found
    }

    private func skipComment(from start: Int) -> Int {
        var i = start
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "*"), bytes[i + 1] == UInt8(ascii: "/") { return i + 2 }
            i += 1
        }
        return bytes.count
    }

    private func skipSpaceAndComments(from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            if isSpace(bytes[i]) {
                i += 1
            } else if bytes[i] == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                i = skipComment(from: i + 2)
            } else {
                break
            }
        }
        return i
    }

    /// A string starting at its quote: its value, the index after it, and whether its closing quote was there
    /// (a newline or the end of input ends it unclosed).
    private func readString(from start: Int) -> (value: [UInt8], end: Int, closed: Bool) {
        let quote = bytes[start]
        var value: [UInt8] = []
        var i = start + 1
        while i < bytes.count {
            let c = bytes[i]
            if c == quote { return (value, i + 1, true) }
            if c == 0x0A || c == 0x0C || c == 0x0D { return (value, i, false) }
            if c == UInt8(ascii: "\\") {
                i = escape(from: i, into: &value)
                continue
            }
            value.append(c)
            i += 1
        }
        return (value, i, false)
    }

    /// `url(` has been read up to `start`; reads a quoted or unquoted URL and the closing `)`.
    private func readURL(from start: Int, isImport: Bool) -> (token: CSSURLToken, end: Int)? {
        var i = start
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
            let string = readString(from: i)
            guard string.closed else { return nil }
            var j = string.end
            while j < bytes.count, isSpace(bytes[j]) { j += 1 }
            guard j < bytes.count, bytes[j] == UInt8(ascii: ")") else { return nil }
            let token = CSSURLToken(
                range: (i + 1)..<(string.end - 1), quote: bytes[i], value: string.value, isImport: isImport)
            return (token, j + 1)
        }
        let begin = i
        var value: [UInt8] = []
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: ")") || isSpace(c) { break }
            // A quote, `(` or a control byte makes a bad URL, which CSS ignores.
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || c == UInt8(ascii: "(") || c < 0x20 { return nil }
            if c == UInt8(ascii: "\\") {
                i = escape(from: i, into: &value)
                continue
            }
            value.append(c)
            i += 1
        }
        let end = i
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: ")") else { return nil }
        return (CSSURLToken(range: begin..<end, quote: nil, value: value, isImport: isImport), i + 1)
    }

    /// Resolves the escape at `start` (a backslash) into `value`; returns the index after it.
    private func escape(from start: Int, into value: inout [UInt8]) -> Int {
        var i = start + 1
        guard i < bytes.count else { return i }
        if bytes[i] == 0x0A { return i + 1 }  // an escaped newline continues a string
        var hex: UInt32 = 0
        var digits = 0
        while i < bytes.count, digits < 6, let digit = Hex.value(of: bytes[i]) {
            hex = hex * 16 + UInt32(digit)
            digits += 1
            i += 1
        }
        guard digits > 0 else {
            value.append(bytes[i])
            return i + 1
        }
        if i < bytes.count, isSpace(bytes[i]) { i += 1 }
        let scalar = Unicode.Scalar(hex).flatMap { hex == 0 ? nil : $0 } ?? "\u{FFFD}"
        value.append(contentsOf: Array(String(Character(scalar)).utf8))
        return i
    }

    private func matches(_ word: String, at index: Int) -> Bool {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count else { return false }
        for k in 0..<w.count where asciiLower(bytes[index + k]) != w[k] { return false }
        return true
    }

    private func isNameByte(_ c: UInt8) -> Bool {
        isASCIILetter(c) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c >= 0x80
    }
}

