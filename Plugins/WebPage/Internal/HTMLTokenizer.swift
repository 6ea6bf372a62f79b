/// One attribute of a start tag, with the byte range of its value in the page.
struct HTMLAttribute: Sendable {
    /// The name, ASCII-lowercased.
    var name: String
    /// The value's bytes in the page, inside its quotes (empty and at the name's end when there is no value).
    var valueRange: Range<Int>
    /// `"` or `'` for a quoted value, `nil` for an unquoted or missing one.
    var quote: UInt8?
    /// Whether the attribute has a value (`=` followed it).
    var hasValue: Bool
}

/// A start tag: its name, attributes (first of each name only, as HTML keeps) and the bytes from `<` to `>`.
struct HTMLStartTag: Sendable {
    var name: String
    var attributes: [HTMLAttribute]
    var range: Range<Int>

    func attribute(_ name: String) -> HTMLAttribute? { attributes.first { $0.name == name } }
}

/// What the tokenizer reports: start tags, and the text of `<style>` elements (raw text, where CSS lives).
enum HTMLToken: Sendable {
    case startTag(HTMLStartTag)
    case styleText(Range<Int>)
}

/// A small HTML tokenizer that keeps byte offsets (decision 0025).
///
/// It follows the HTML tokenizer's states where they decide what is markup and what is text: tags, attributes in
/// the three quoting styles, comments (including `<!-->`), doctypes and bogus comments, end tags, and the raw-text
/// and RCDATA elements (`script`, `style`, `xmp`, `iframe`, `noembed`, `noframes`, `textarea`, `title`, and
/// `plaintext` to the end), and SVG and MathML content (no raw text there, CDATA sections, and the HTML elements
/// that break out of it). `noscript` content is tokenized as markup: a page saved for offline use keeps what a
/// browser without scripts shows. It works on bytes, so any ASCII-compatible charset tokenizes the same; a tag cut
/// off by the end of the input is dropped, as in HTML. It never fails.
struct HTMLTokenizer {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Every token in document order.
    func tokens() -> [HTMLToken] {
        var tokens: [HTMLToken] = []
        var foreignDepth = 0  // inside <svg> or <math>
        var i = 0
        let n = bytes.count
        while i < n {
            guard bytes[i] == UInt8(ascii: "<"), i + 1 < n else {
                i += 1
                continue
            }
            let next = bytes[i + 1]
            if next == UInt8(ascii: "!"), foreignDepth > 0, bytes[i...].starts(with: Array("<![CDATA[".utf8)) {
                i = skip(past: "]]>", from: i + 9)  // a CDATA section in SVG or MathML
            } else if next == UInt8(ascii: "!") {
                i = skipMarkupDeclaration(from: i)
            } else if next == UInt8(ascii: "?") {
                i = skip(to: UInt8(ascii: ">"), from: i + 2)
            } else if next == UInt8(ascii: "/") {
                if i + 2 < n, isASCIILetter(bytes[i + 2]) {
                    guard let tag = parseTag(from: i + 2, start: i) else { return tokens }
                    i = tag.range.upperBound
                    if tag.name == "svg" || tag.name == "math" {
                        foreignDepth = max(0, foreignDepth - 1)
                    } else if tag.name == "p" || tag.name == "br" {
                        foreignDepth = 0
                    }
                } else if i + 2 < n, bytes[i + 2] == UInt8(ascii: ">") {
                    i += 3
                } else {
                    i = skip(to: UInt8(ascii: ">"), from: i + 2)  // bogus comment
                }
            } else if isASCIILetter(next) {
                guard let tag = parseTag(from: i + 1, start: i) else { return tokens }
                tokens.append(.startTag(tag))
                i = tag.range.upperBound
                let selfClosing = bytes[i - 2] == UInt8(ascii: "/")
                if foreignDepth > 0 {
                    // SVG and MathML content has no raw text: a <style> there is CSS, and markup after it is markup.
                    if Self.breakout.contains(tag.name) {
                        foreignDepth = 0
                    } else {
                        if tag.name == "svg" || tag.name == "math", !selfClosing { foreignDepth += 1 }
                        if tag.name == "style", !selfClosing {
                            // Its CSS is the text up to the next tag (which is markup here, and must not be read
                            // as CSS as well).
                            var end = i
                            while end < n, bytes[end] != UInt8(ascii: "<") { end += 1 }
                            tokens.append(.styleText(i..<end))
                        }
                        continue
                    }
                }
                if tag.name == "svg" || tag.name == "math", !selfClosing {
                    foreignDepth = 1
                    continue
                }
                switch tag.name {
                case "style":
                    let end = rawTextEnd(for: "style", from: i)
                    tokens.append(.styleText(i..<end))
                    i = end
                case "script", "xmp", "iframe", "noembed", "noframes", "textarea", "title":
                    i = rawTextEnd(for: tag.name, from: i)
                case "plaintext":
                    return tokens
                default:
                    break
                }
            } else {
                i += 1
            }
        }
        return tokens
    }

    /// `<!--…-->`, `<!DOCTYPE …>`, `<![CDATA[…]]>` (a bogus comment in HTML content) and other `<!…>`.
    private func skipMarkupDeclaration(from start: Int) -> Int {
        if hasPrefix("<!--", at: start) {
            var i = start + 4
            // `<!-->` and `<!--->` end at once.
            if i < bytes.count, bytes[i] == UInt8(ascii: ">") { return i + 1 }
            if hasPrefix("->", at: i) { return i + 2 }
            while i < bytes.count {
                if hasPrefix("-->", at: i) { return i + 3 }
                if hasPrefix("--!>", at: i) { return i + 4 }
                i += 1
            }
            return bytes.count
        }
        return skip(to: UInt8(ascii: ">"), from: start + 2)
    }

    /// The HTML elements that end SVG and MathML content when they start inside it.
    static let breakout: Set<String> = [
        "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2",
        "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre",
        "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var",
    ]

    private func skip(past marker: String, from start: Int) -> Int {
        let pattern = Array(marker.utf8)
        var i = start
        while i + pattern.count <= bytes.count {
            if bytes[i..<(i + pattern.count)].elementsEqual(pattern) { return i + pattern.count }
            i += 1
        }
        return bytes.count
    }

    private func skip(to byte: UInt8, from start: Int) -> Int {
        var i = start
        while i < bytes.count, bytes[i] != byte { i += 1 }
        return min(i + 1, bytes.count)
    }

    /// Parses a tag whose name starts at `nameStart`; `nil` when the input ends inside it.
    private func parseTag(from nameStart: Int, start: Int) -> HTMLStartTag? {
        let n = bytes.count
        var i = nameStart
        while i < n, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "/"), bytes[i] != UInt8(ascii: ">") { i += 1 }
        let name = lowercased(nameStart..<i)
        var attributes: [HTMLAttribute] = []
        while true {
            while i < n, isSpace(bytes[i]) || bytes[i] == UInt8(ascii: "/") { i += 1 }
            guard i < n else { return nil }
            if bytes[i] == UInt8(ascii: ">") { break }
            // Attribute name: the first character may be `=`.
            let nameBegin = i
            i += 1
            while i < n, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "/"), bytes[i] != UInt8(ascii: ">"),
                bytes[i] != UInt8(ascii: "=")
            {
                i += 1
            }
            let attributeName = lowercased(nameBegin..<i)
            var j = i
            while j < n, isSpace(bytes[j]) { j += 1 }
            var attribute = HTMLAttribute(name: attributeName, valueRange: i..<i, quote: nil, hasValue: false)
            if j < n, bytes[j] == UInt8(ascii: "=") {
                j += 1
                while j < n, isSpace(bytes[j]) { j += 1 }
                guard j < n else { return nil }
                let quote = bytes[j]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    var k = j + 1
                    while k < n, bytes[k] != quote { k += 1 }
                    guard k < n else { return nil }
                    attribute.valueRange = (j + 1)..<k
                    attribute.quote = quote
                    i = k + 1
                } else if quote == UInt8(ascii: ">") {
                    attribute.valueRange = j..<j
                    i = j
                } else {
                    var k = j
                    while k < n, !isSpace(bytes[k]), bytes[k] != UInt8(ascii: ">") { k += 1 }
                    attribute.valueRange = j..<k
                    i = k
                }
                attribute.hasValue = true
            }
            if !attributes.contains(where: { $0.name == attributeName }) { attributes.append(attribute) }
        }
        return HTMLStartTag(name: name, attributes: attributes, range: start..<(i + 1))
    }

    /// Where the raw text of `name` ends: at `</name` followed by a space, `/` or `>`, or at the end.
    private func rawTextEnd(for name: String, from start: Int) -> Int {
        let nameBytes = Array(name.utf8)
        var i = start
        while i + 1 + nameBytes.count < bytes.count {
            if bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "/") {
                var matches = true
                for (k, c) in nameBytes.enumerated() where asciiLower(bytes[i + 2 + k]) != c {
                    matches = false
                    break
                }
                let after = i + 2 + nameBytes.count
                if matches, after < bytes.count,
                    isSpace(bytes[after]) || bytes[after] == UInt8(ascii: "/") || bytes[after] == UInt8(ascii: ">")
                {
                    return i
                }
            }
            i += 1
        }
        return bytes.count
    }

    private func hasPrefix(_ text: String, at index: Int) -> Bool {
        let prefix = Array(text.utf8)
        guard index + prefix.count <= bytes.count else { return false }
        for (k, c) in prefix.enumerated() where asciiLower(bytes[index + k]) != asciiLower(c) { return false }
        return true
    }

    private func lowercased(_ range: Range<Int>) -> String {
        String(decoding: bytes[range].map(asciiLower), as: UTF8.self)
    }
}

func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
}

func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
}

func asciiLower(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
}
