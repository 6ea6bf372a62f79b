/// An HTML page or a stylesheet, scanned for the URLs a browser would fetch to render it, with the byte offsets
/// needed to rewrite them in place.
///
/// ```swift
/// let page = WebPageDocument(html: body, charset: WebPageCharset(contentType: type))
/// for reference in page.references where reference.isFetched { print(reference.kind, reference.text) }
/// let saved = page.rewritten { reference in localCopies[reference.text] }
/// ```
///
/// HTML is read by ``WebPageDocument``'s own tokenizer (decision 0025), which keeps the byte range of every
/// attribute value; CSS (`<style>`, `style=` and stylesheets) by a scanner of `url()` in its three quoting styles
/// and both forms of `@import`. Scanning never fails: hostile or broken markup yields fewer references, never an
/// error, and the work is linear in the input.
public struct WebPageDocument: Sendable {
    /// Whether a document is HTML or CSS.
    public enum Format: Sendable, Hashable {
        /// An HTML page (or frame).
        case html
        /// A stylesheet.
        case css
    }

    /// The document's bytes, as received.
    public let bytes: [UInt8]
    /// HTML or CSS.
    public let format: Format
    /// The charset URLs are read with: the one given, else `<meta charset>` or `@charset`, else UTF-8 when the
    /// bytes are valid UTF-8, else Windows-1252.
    public let charset: WebPageCharset
    /// Every reference in document order (an attribute's references in the order of its value).
    public let references: [WebPageReference]
    /// The first `<base href>`'s URL text, or `nil`. Resolve references against it (itself resolved against the
    /// page's URL); ``rewritten(removingBase:_:)`` removes the element.
    public let baseHref: String?

    let slots: [AttributeSlot]
    let baseRange: Range<Int>?

    /// Scans an HTML page.
    /// - Parameters:
    ///   - html: The page's bytes.
    ///   - charset: The charset from `Content-Type`, or `nil` to detect it.
    public init(html: [UInt8], charset: WebPageCharset? = nil) {
        var finder = HTMLReferenceFinder(bytes: html)
        let tokens = HTMLTokenizer(html).tokens()
        let detected = charset ?? HTMLReferenceFinder.declaredCharset(in: tokens, bytes: html) ?? Self.guess(html)
        finder.find(in: tokens, charset: detected)
        self.bytes = html
        self.format = .html
        self.charset = detected
        self.references = finder.references
        self.slots = finder.slots
        self.baseHref = finder.baseHref
        self.baseRange = finder.baseRange
    }

    /// Scans a stylesheet.
    /// - Parameters:
    ///   - css: The stylesheet's bytes.
    ///   - charset: The charset from `Content-Type`, or `nil` to use `@charset` or detect it.
    public init(css: [UInt8], charset: WebPageCharset? = nil) {
        let detected = charset ?? Self.declaredCSSCharset(css) ?? Self.guess(css)
        self.bytes = css
        self.format = .css
        self.charset = detected
        self.references = CSSScanner(css).urls().map { token in
            WebPageReference(
                kind: token.isImport ? .stylesheet : .cssResource, text: detected.decode(token.value),
                site: .init(slot: nil, range: token.range, isCSS: true, cssQuote: token.quote))
        }
        self.slots = []
        self.baseHref = nil
        self.baseRange = nil
    }

    /// UTF-8 when the bytes are valid UTF-8 (the encoding of almost every page today), else Windows-1252.
    static func guess(_ bytes: [UInt8]) -> WebPageCharset {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return .utf8
            case .error: return .windows1252
            }
        }
    }

    /// `@charset "name";` at the very start of a stylesheet.
    static func declaredCSSCharset(_ css: [UInt8]) -> WebPageCharset? {
        let prefix = Array("@charset \"".utf8)
        guard css.starts(with: prefix) else { return nil }
        let rest = css.dropFirst(prefix.count).prefix(64)
        guard let end = rest.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return WebPageCharset(label: String(decoding: css[prefix.count..<end], as: UTF8.self))
    }
}

/// An attribute value that holds references: its bytes in the page, its quote, and its decoded text.
struct AttributeSlot: Sendable {
    var range: Range<Int>
    var quote: UInt8?
    var decoded: [UInt8]
}
