/// Walks an HTML page's tags and collects the references a browser would fetch to render it (issue 29's list),
/// plus links, which are made absolute but never fetched.
struct HTMLReferenceFinder {
    let bytes: [UInt8]
    private(set) var references: [WebPageReference] = []
    private(set) var slots: [AttributeSlot] = []
    private(set) var baseHref: String?
    private(set) var baseRange: Range<Int>?
    private var charset: WebPageCharset = .utf8

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// `<meta charset>` or `<meta http-equiv=content-type content="…; charset=…">`, the first that names one.
    static func declaredCharset(in tokens: [HTMLToken], bytes: [UInt8]) -> WebPageCharset? {
        for case .startTag(let tag) in tokens where tag.name == "meta" {
            func value(_ name: String) -> String? {
                tag.attribute(name).map { String(decoding: bytes[$0.valueRange], as: UTF8.self) }
            }
            if let label = value("charset"), !label.trimmingASCIISpaces().isEmpty {
                return WebPageCharset(label: label)
            }
            if value("http-equiv")?.trimmingASCIISpaces().lowercased() == "content-type",
                let content = value("content"), let charset = WebPageCharset(contentType: content)
            {
                return charset
            }
        }
        return nil
    }

    mutating func find(in tokens: [HTMLToken], charset: WebPageCharset) {
        self.charset = charset
        for token in tokens {
            switch token {
            case .styleText(let range):
                for url in CSSScanner(Array(bytes[range])).urls() {
                    let shifted = (url.range.lowerBound + range.lowerBound)..<(url.range.upperBound + range.lowerBound)
                    references.append(
                        WebPageReference(
                            kind: url.isImport ? .stylesheet : .cssResource, text: charset.decode(url.value),
                            site: .init(slot: nil, range: shifted, isCSS: true, cssQuote: url.quote)))
                }
            case .startTag(let tag):
                visit(tag)
            }
        }
    }

    private mutating func visit(_ tag: HTMLStartTag) {
        switch tag.name {
        case "img":
            url(tag, "src", .image)
            srcset(tag, "srcset", .image)
            url(tag, "data-src", .image)
            srcset(tag, "data-srcset", .image)
        case "source":
            url(tag, "src", .media)
            srcset(tag, "srcset", .image)
            url(tag, "data-src", .media)
            srcset(tag, "data-srcset", .image)
        case "video":
            url(tag, "poster", .image)
            url(tag, "src", .media)
        case "audio", "track", "embed":
            url(tag, "src", .media)
        case "input":
            if attributeText(tag, "type")?.lowercased() == "image" { url(tag, "src", .image) }
        case "script":
            url(tag, "src", .script)
        case "link":
            link(tag)
        case "frame", "iframe":
            url(tag, "src", .frame)
            url(tag, "data-src", .frame)
        case "object":
            url(tag, "data", .object)
        case "body", "table", "td", "th":
            url(tag, "background", .image)
        case "image", "use":
            url(tag, "href", .image)
            url(tag, "xlink:href", .image)
        case "a", "area":
            url(tag, "href", .link)
        case "form":
            url(tag, "action", .link)
        case "base":
            if baseHref == nil, let href = attributeText(tag, "href") {
                baseHref = href
                baseRange = tag.range
            }
        default:
            break
        }
        if let style = tag.attribute("style"), style.hasValue { css(style) }
    }

    private mutating func link(_ tag: HTMLStartTag) {
        let rel = Set((attributeText(tag, "rel") ?? "").lowercased().split(whereSeparator: { $0.isWhitespace }))
        let destination = attributeText(tag, "as")?.trimmingASCIISpaces().lowercased()
        if rel.contains("stylesheet") {
            url(tag, "href", .stylesheet)
        } else if rel.contains("icon") {
            url(tag, "href", .icon)
        } else if rel.contains("preload"), destination == "style" {
            url(tag, "href", .stylesheet)
        } else if rel.contains("preload"), destination == "image" {
            url(tag, "href", .image)
            srcset(tag, "imagesrcset", .image)
        } else {
            url(tag, "href", .link)
        }
    }

    private func attributeText(_ tag: HTMLStartTag, _ name: String) -> String? {
        guard let attribute = tag.attribute(name), attribute.hasValue else { return nil }
        return HTMLEntities.decode(charset.decode(bytes[attribute.valueRange]))
    }

    /// A slot for the attribute's value; its index.
    private mutating func slot(_ attribute: HTMLAttribute) -> Int {
        let decoded = HTMLEntities.decode(charset.decode(bytes[attribute.valueRange]))
        slots.append(AttributeSlot(range: attribute.valueRange, quote: attribute.quote, decoded: Array(decoded.utf8)))
        return slots.count - 1
    }

    private mutating func url(_ tag: HTMLStartTag, _ name: String, _ kind: WebPageReference.Kind) {
        guard let attribute = tag.attribute(name), attribute.hasValue else { return }
        let index = slot(attribute)
        let text = String(decoding: slots[index].decoded, as: UTF8.self)
        guard !text.trimmingASCIISpaces().isEmpty else { return }
        references.append(
            WebPageReference(kind: kind, text: text, site: .init(slot: index, range: nil, isCSS: false, cssQuote: nil)))
    }

    private mutating func srcset(_ tag: HTMLStartTag, _ name: String, _ kind: WebPageReference.Kind) {
        guard let attribute = tag.attribute(name), attribute.hasValue else { return }
        let index = slot(attribute)
        let decoded = slots[index].decoded
        for range in SrcsetParser.urlRanges(in: decoded) {
            references.append(
                WebPageReference(
                    kind: kind, text: String(decoding: decoded[range], as: UTF8.self),
                    site: .init(slot: index, range: range, isCSS: false, cssQuote: nil)))
        }
    }

    private mutating func css(_ attribute: HTMLAttribute) {
        let index = slot(attribute)
        let decoded = slots[index].decoded
        for url in CSSScanner(decoded).urls() {
            references.append(
                WebPageReference(
                    kind: url.isImport ? .stylesheet : .cssResource, text: String(decoding: url.value, as: UTF8.self),
                    site: .init(slot: index, range: url.range, isCSS: true, cssQuote: url.quote)))
        }
    }
}
