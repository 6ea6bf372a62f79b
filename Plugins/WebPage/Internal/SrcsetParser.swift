/// The URLs of a `srcset` value (`a.png 1x, b.png 2x`), as byte ranges of the decoded value, by the HTML
/// standard's candidate parsing: descriptors are skipped up to a comma outside parentheses, and a URL's trailing
/// commas end the candidate.
enum SrcsetParser {
    static func urlRanges(in value: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var i = 0
        let n = value.count
        while i < n {
            while i < n, isSpace(value[i]) || value[i] == UInt8(ascii: ",") { i += 1 }
            guard i < n else { break }
            let start = i
            while i < n, !isSpace(value[i]) { i += 1 }
            var end = i
            var endsWithComma = false
            while end > start, value[end - 1] == UInt8(ascii: ",") {
                end -= 1
                endsWithComma = true
            }
            if end > start { ranges.append(start..<end) }
            if endsWithComma { continue }
            var depth = 0
            while i < n {
                let c = value[i]
                if c == UInt8(ascii: "(") {
                    depth += 1
                } else if c == UInt8(ascii: ")") {
                    depth = max(0, depth - 1)
                } else if c == UInt8(ascii: ","), depth == 0 {
                    break
                }
                i += 1
            }
        }
        return ranges
    }
}
