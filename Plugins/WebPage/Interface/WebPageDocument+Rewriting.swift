extension WebPageDocument {
    /// The document with some references replaced in place, at the byte offsets of their values.
    ///
    /// Every byte outside a changed attribute value or CSS URL is kept, so the page keeps its charset, its markup
    /// and its scripts (inline script text is never scanned, so never rewritten). A changed attribute value is
    /// written back whole (its other candidates and descriptors, in a `srcset`, unchanged), with `&` and its quote
    /// as character references; an unquoted value gains double quotes. A CSS URL keeps its quotes, and an unquoted
    /// one gains double quotes. New URLs should be ASCII (percent-encode them), so any charset can hold them.
    /// - Parameters:
    ///   - removingBase: Whether to remove the `<base>` element that set ``baseHref`` (do it when references are
    ///     made absolute or local, or they would resolve against it again).
    ///   - replacement: The new URL text for a reference, or `nil` to leave it as it is.
    /// - Returns: The rewritten bytes.
    public func rewritten(removingBase: Bool = true, _ replacement: (WebPageReference) -> String?) -> [UInt8] {
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        var slotEdits: [Int: [(range: Range<Int>?, text: [UInt8])]] = [:]
        for reference in references {
            guard let text = replacement(reference) else { continue }
            let written = reference.site.isCSS ? Self.cssText(text, quote: reference.site.cssQuote) : Array(text.utf8)
            if let slot = reference.site.slot {
                slotEdits[slot, default: []].append((reference.site.range, written))
            } else if let range = reference.site.range {
                edits.append((range, written))
            }
        }
        for (index, changes) in slotEdits {
            let slot = slots[index]
            var value: [UInt8]
            if let whole = changes.first(where: { $0.range == nil }) {
                value = whole.text
            } else {
                value = slot.decoded
                for change in changes.sorted(by: { $0.range!.lowerBound > $1.range!.lowerBound }) {
                    value.replaceSubrange(change.range!, with: change.text)
                }
            }
            let quote = slot.quote ?? UInt8(ascii: "\"")
            var encoded = HTMLEntities.encode(String(decoding: value, as: UTF8.self), quote: quote, charset: charset)
            if slot.quote == nil { encoded = [quote] + encoded + [quote] }
            edits.append((slot.range, encoded))
        }
        if removingBase, let baseRange { edits.append((baseRange, [])) }
        return Self.apply(edits, to: bytes)
    }

    /// Applies non-overlapping edits; one that overlaps an earlier one (a URL inside a removed `<base>`) is
    /// dropped, the wider edit winning.
    static func apply(_ edits: [(range: Range<Int>, bytes: [UInt8])], to bytes: [UInt8]) -> [UInt8] {
        let ordered = edits.sorted {
            $0.range.lowerBound != $1.range.lowerBound
                ? $0.range.lowerBound < $1.range.lowerBound : $0.range.count > $1.range.count
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        for edit in ordered where edit.range.lowerBound >= position {
            out.append(contentsOf: bytes[position..<edit.range.lowerBound])
            out.append(contentsOf: edit.bytes)
            position = edit.range.upperBound
        }
        out.append(contentsOf: bytes[position...])
        return out
    }

    /// A URL written as CSS: inside its quotes with the quote, `\` and line breaks escaped; an unquoted one gains
    /// double quotes.
    static func cssText(_ text: String, quote: UInt8?) -> [UInt8] {
        let q = quote ?? UInt8(ascii: "\"")
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case q, UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0x0A, 0x0D, 0x0C: out += Array("\\\(String(byte, radix: 16)) ".utf8)
            default: out.append(byte)
            }
        }
        return quote == nil ? [q] + out + [q] : out
    }
}
