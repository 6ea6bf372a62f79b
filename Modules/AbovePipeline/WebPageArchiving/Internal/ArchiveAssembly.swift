import FoundationEssentials
import WebPage

/// Writes a crawl out: references rewritten to local paths or `data:` URIs, those not saved made absolute.
struct ArchiveAssembly {
    let crawl: ArchiveCrawl
    private var localPaths: [Int: String] = [:]
    private var inlinedDocuments: [Int: [UInt8]] = [:]

    init(crawl: ArchiveCrawl) { self.crawl = crawl }

    /// What a reference in `document` becomes: `target` gives the text for a saved node, and every other
    /// `http(s)` reference is made absolute; the rest stay as they are.
    private func rewrite(_ nodeIndex: Int, target: (Int) -> String?) -> [UInt8] {
        let node = crawl.nodes[nodeIndex]
        guard let document = node.document, let base = node.base else { return node.bytes }
        return document.rewritten { reference in
            guard case .http(let url, let fragment) = WebPageURL.resolve(reference.text, against: base) else {
                return nil
            }
            if reference.isFetched, let index = crawl.node(for: url), crawl.nodes[index].outcome == .saved,
                let text = target(index)
            {
                return text + (fragment.map { "#" + $0 } ?? "")
            }
            return WebPageURL.text(url, fragment: fragment)
        }
    }

    // MARK: data: URIs

    /// The node with every saved reference inlined as a `data:` URI, documents recursively. A reference back to a
    /// document being inlined (a cycle) is made absolute.
    mutating func inlined(_ nodeIndex: Int) -> [UInt8] {
        var inProgress: Set<Int> = []
        return inline(nodeIndex, inProgress: &inProgress)
    }

    private mutating func inline(_ nodeIndex: Int, inProgress: inout Set<Int>) -> [UInt8] {
        if let done = inlinedDocuments[nodeIndex] { return done }
        inProgress.insert(nodeIndex)
        var uris: [Int: String] = [:]
        let node = crawl.nodes[nodeIndex]
        if let document = node.document, let base = node.base {
            for reference in document.references where reference.isFetched {
                guard case .http(let url, _) = WebPageURL.resolve(reference.text, against: base),
                    let target = crawl.node(for: url), crawl.nodes[target].outcome == .saved, uris[target] == nil,
                    !inProgress.contains(target)
                else { continue }
                let child = crawl.nodes[target]
                let bytes = child.document != nil ? inline(target, inProgress: &inProgress) : child.bytes
                uris[target] = DataURI.make(bytes, mediaType: mediaType(of: child))
            }
        }
        let result = rewrite(nodeIndex) { uris[$0] }
        inProgress.remove(nodeIndex)
        inlinedDocuments[nodeIndex] = result
        return result
    }

    /// `text/html` for a frame and `text/css` for a stylesheet (with the charset it was read with, unless UTF-8);
    /// the served type for the rest.
    private func mediaType(of node: ArchiveNode) -> String {
        if let document = node.document {
            let type = document.format == .html ? "text/html" : "text/css"
            return document.charset == .utf8 ? type : type + ";charset=" + document.charset.label
        }
        return node.contentType ?? "application/octet-stream"
    }

    // MARK: local files

    /// Names every saved node, writes the resources under `directory` and the page to `directory/pageFile`.
    mutating func writeLocal(directory: String, pageFile: String) throws -> [UInt8] {
        var names = WebPageLocalNames(reserved: [pageFile])
        localPaths[0] = pageFile
        for (position, node) in crawl.nodes.enumerated().dropFirst() where node.outcome == .saved {
            localPaths[position] = names.assign(
                node.finalURL ?? node.url,
                kind: node.document?.format == .html
                    ? .frame : node.kind)
        }
        let paths = localPaths
        var pageBytes: [UInt8] = []
        for (position, path) in paths.sorted(by: { $0.key < $1.key }) {
            let bytes = rewrite(position) { WebPageLocalNames.relativeReference(from: path, to: paths[$0]!) }
            if position == 0 { pageBytes = bytes }
            try write(bytes, to: directory + "/" + path)
        }
        return pageBytes
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        do {
            let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            if !parent.isEmpty {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw WebPageArchiveError(.writeFailed, message: "Could not write \(path)", underlying: error)
        }
    }

    func resource(for node: ArchiveNode) -> ArchivedResource {
        let position = crawl.node(for: node.url)
        return ArchivedResource(
            url: node.url, finalURL: node.finalURL, kind: node.kind, depth: node.depth, outcome: node.outcome,
            contentType: node.contentType, size: node.outcome == .saved ? node.bytes.count : 0,
            localPath: position.flatMap { localPaths[$0] })
    }
}
