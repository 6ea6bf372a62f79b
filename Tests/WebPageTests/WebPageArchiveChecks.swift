import FoundationEssentials
import Testing
import WebPage

/// Checks shared by the archive tests: what an offline copy must satisfy, read back with the same finder a
/// browser-like reader would use.
enum WebPageArchiveChecks {
    /// Every chunk of `original` between the `changed` substrings (the URL values that were to be rewritten, and
    /// removed markup such as `<base>`) appears in `output` in order: the bytes outside the rewritten values are
    /// the page's own.
    static func keepsBytesOutside(_ changed: [[UInt8]], original: [UInt8], output: [UInt8]) -> Bool {
        var chunks: [[UInt8]] = [original]
        for cut in changed where !cut.isEmpty {
            chunks = chunks.flatMap { split($0, at: cut) }
        }
        var position = 0
        for chunk in chunks where !chunk.isEmpty {
            guard let found = find(chunk, in: output, from: position) else { return false }
            position = found + chunk.count
        }
        return true
    }

    static func split(_ bytes: [UInt8], at cut: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0
        var i = 0
        while i + cut.count <= bytes.count {
            if bytes[i..<(i + cut.count)].elementsEqual(cut) {
                parts.append(Array(bytes[start..<i]))
                i += cut.count
                start = i
            } else {
                i += 1
            }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// The fetched references of an HTML or CSS document that still point at one of `origins`.
    static func serverReferences(in bytes: [UInt8], css: Bool, origins: [String]) -> [String] {
        let document = css ? WebPageDocument(css: bytes) : WebPageDocument(html: bytes)
        return document.references.filter { reference in
            reference.isFetched && origins.contains { reference.text.hasPrefix($0) }
        }.map(\.text)
    }

    /// Decodes a base64 `data:` URI's bytes (a `#fragment` after it, as `<use href>` keeps, is not part of them).
    static func dataURIBytes(_ uri: String) -> [UInt8]? {
        let text =
            uri.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard text.hasPrefix("data:"), let comma = text.firstIndex(of: ","),
            text[..<comma].hasSuffix(";base64"),
            let data = Data(base64Encoded: String(text[text.index(after: comma)...]))
        else { return nil }
        return Array(data)
    }
}
