/// A URL a page or stylesheet refers to, where it is, and what a browser does with it.
public struct WebPageReference: Sendable, Hashable {
    /// What the reference loads.
    public enum Kind: Sendable, Hashable {
        /// An image: `img src`, `srcset` candidates, `data-src`, `input type=image`, `video poster`, `body
        /// background`, SVG `image`/`use`, `link rel=preload as=image`.
        case image
        /// A stylesheet: `link rel=stylesheet`, `link rel=preload as=style`, `@import`. A document: it is scanned
        /// in turn.
        case stylesheet
        /// A frame or iframe's page. A document: it is scanned in turn.
        case frame
        /// `script src`.
        case script
        /// Audio, video or a text track: `source src`, `video src`, `audio src`, `track src`, `embed src`.
        case media
        /// `link rel=icon`.
        case icon
        /// `object data`.
        case object
        /// `url()` in CSS other than `@import`: backgrounds, fonts, cursors.
        case cssResource
        /// A link (`a href`, `area href`, `form action`): never fetched, made absolute when the page is rewritten.
        case link
    }

    /// What the reference loads.
    public var kind: Kind
    /// The URL as the document holds it, with character references or CSS escapes resolved.
    public var text: String
    /// Where it is in the document (internal: the rewriter's business).
    let site: Site

    /// Whether the target is a document that has references of its own (a frame or a stylesheet).
    public var isDocument: Bool { kind == .stylesheet || kind == .frame }
    /// Whether a browser fetches it to render the page (everything but links).
    public var isFetched: Bool { kind != .link }

    /// Where a reference's text is: a range of the document's bytes (CSS in a `<style>` element or a stylesheet),
    /// or a range in the decoded value of one attribute.
    struct Site: Sendable, Hashable {
        /// The attribute slot, or `nil` for bytes of the document itself.
        var slot: Int?
        /// The bytes of the URL: in the document, or in the slot's decoded value; `nil` for a slot's whole value.
        var range: Range<Int>?
        /// Whether the text is CSS (a `url()` or `@import`), to be written with CSS quoting.
        var isCSS: Bool
        /// The CSS quote around the URL, or `nil` when it is unquoted.
        var cssQuote: UInt8?
    }
}
