import FoundationEssentials
import HTTPCore
import HTTPPipeline
import WebPage

/// One URL the archive met: the page (index 0) or a resource, with its body when it was saved.
struct ArchiveNode: Sendable {
    var url: URL
    var kind: WebPageReference.Kind
    var depth: Int
    var outcome: ArchivedResource.Outcome
    var finalURL: URL?
    var contentType: String?
    var bytes: [UInt8] = []
    /// The scanned document, for a saved page, frame or stylesheet.
    var document: WebPageDocument?
    /// The URL its references resolve against: its final URL, or its `<base href>`.
    var base: URL?
}

/// Fetches the page, then level by level the resources of the documents fetched so far (breadth first, so the
/// shallowest path to a document counts), with the visited set, the depth limit and the caps of issue 29.
struct ArchiveCrawl {
    let client: Client
    let configuration: WebPageArchiver.Configuration
    private(set) var nodes: [ArchiveNode] = []
    /// Requested and final URLs (without fragment) to node indices.
    private(set) var index: [String: Int] = [:]
    private(set) var totalBytes = 0
    /// Resources sent for, which ``WebPageArchiver/Configuration/maxResources`` caps (those skipped for another
    /// reason do not count).
    private var requested = 0

    init(client: Client, configuration: WebPageArchiver.Configuration) {
        self.client = client
        self.configuration = configuration
    }

    /// The node a URL leads to, if the archive met it.
    func node(for url: URL) -> Int? { index[Self.key(url)] }

    static func key(_ url: URL) -> String { url.absoluteString }

    mutating func run(from url: URL) async throws {
        let page = try await fetch(url, limit: configuration.maxResourceBytes)
        switch page {
        case .response(let status, _, _, _) where !(200..<300).contains(status):
            throw WebPageArchiveError(.pageStatus, status: status, message: "The page answered \(status)")
        case .response(_, let finalURL, let contentType, let body):
            var node = ArchiveNode(url: url, kind: .frame, depth: 0, outcome: .saved)
            record(&node, finalURL: finalURL, contentType: contentType, body: body)
            add(node, aliases: [finalURL])
        case .tooLarge:
            throw WebPageArchiveError(.pageTooLarge, message: "The page is larger than the per-resource cap")
        case .failed(let error):
            throw error
        }
        var level = [0]
        var depth = 0
        while !level.isEmpty {
            let wanted = plan(after: level, depth: depth)
            level = try await fetchAll(wanted)
            depth += 1
        }
    }

    /// The new resources the documents of one level refer to; those not to fetch are recorded with why.
    private mutating func plan(after level: [Int], depth: Int) -> [Int] {
        var wanted: [Int] = []
        let pageURL = nodes[0].finalURL ?? nodes[0].url
        for documentIndex in level {
            guard let document = nodes[documentIndex].document, let base = nodes[documentIndex].base else { continue }
            for reference in document.references where reference.isFetched {
                guard case .http(let url, _) = WebPageURL.resolve(reference.text, against: base),
                    node(for: url) == nil
                else { continue }
                var node = ArchiveNode(url: url, kind: reference.kind, depth: depth + 1, outcome: .tooMany)
                if configuration.sameHostOnly, !Self.sameOrigin(url, pageURL) {
                    node.outcome = .otherHost
                } else if reference.isDocument, depth + 1 > configuration.maxDepth {
                    node.outcome = .tooDeep
                } else if requested >= configuration.maxResources {
                    node.outcome = .tooMany
                } else {
                    requested += 1
                    wanted.append(nodes.count)
                }
                add(node, aliases: [])
            }
        }
        return wanted
    }

    /// Fetches the planned nodes with a bounded width, then settles them in the order they were found (so the
    /// size cap saves the same resources whatever order they arrive in). Returns the saved documents.
    private mutating func fetchAll(_ wanted: [Int]) async throws -> [Int] {
        guard !wanted.isEmpty else { return [] }
        let limit = min(configuration.maxResourceBytes, max(0, configuration.maxTotalBytes - totalBytes))
        let urls = wanted.map { nodes[$0].url }
        var results = [FetchResult?](repeating: nil, count: wanted.count)
        let this = self
        try await withThrowingTaskGroup(of: (Int, FetchResult).self) { group in
            var next = 0
            func start() {
                guard next < urls.count else { return }
                let position = next
                next += 1
                group.addTask { (position, try await this.fetch(urls[position], limit: limit)) }
            }
            for _ in 0..<configuration.maxConcurrentRequests { start() }
            while let (position, result) = try await group.next() {
                results[position] = result
                start()
            }
        }
        var documents: [Int] = []
        for (position, nodeIndex) in wanted.enumerated() {
            guard let result = results[position] else { continue }
            var node = nodes[nodeIndex]
            switch result {
            case .failed(let error):
                node.outcome = .failed(error.code.description)
            case .tooLarge:
                node.outcome = limit < configuration.maxResourceBytes ? .overTotalSize : .tooLarge
            case .response(let status, let finalURL, let contentType, let body):
                node.finalURL = finalURL
                node.contentType = contentType
                if !(200..<300).contains(status) {
                    node.outcome = .status(status)
                } else if configuration.sameHostOnly, !Self.sameOrigin(finalURL, nodes[0].finalURL ?? nodes[0].url) {
                    node.outcome = .otherHost  // redirected off the page's host
                } else if totalBytes + body.count > configuration.maxTotalBytes {
                    node.outcome = .overTotalSize
                } else {
                    totalBytes += body.count
                    node.outcome = .saved
                    record(&node, finalURL: finalURL, contentType: contentType, body: body)
                    if node.document != nil { documents.append(nodeIndex) }
                    if index[Self.key(finalURL)] == nil { index[Self.key(finalURL)] = nodeIndex }
                }
            }
            nodes[nodeIndex] = node
        }
        return documents
    }

    /// Keeps a saved body and scans it when it is a document: HTML for a frame (or the page) served as HTML, CSS
    /// for a stylesheet.
    private func record(_ node: inout ArchiveNode, finalURL: URL, contentType: String?, body: [UInt8]) {
        node.finalURL = finalURL
        node.contentType = contentType
        node.bytes = body
        let type = (contentType ?? "").split(separator: ";").first.map { String($0).lowercased() } ?? ""
        let charset = contentType.flatMap(WebPageCharset.init(contentType:))
        let isHTML = type.contains("html") || (type.isEmpty && node.kind == .frame)
        if node.kind == .frame, isHTML {
            let document = WebPageDocument(html: body, charset: charset)
            node.document = document
            node.base = finalURL
            if let href = document.baseHref, case .http(let base, _) = WebPageURL.resolve(href, against: finalURL) {
                node.base = base
            }
        } else if node.kind == .stylesheet {
            node.document = WebPageDocument(css: body, charset: charset)
            node.base = finalURL
        }
    }

    private mutating func add(_ node: ArchiveNode, aliases: [URL]) {
        let position = nodes.count
        nodes.append(node)
        for url in [node.url] + aliases where index[Self.key(url)] == nil { index[Self.key(url)] = position }
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func port(_ url: URL) -> Int { url.effectivePort }
        return a.host?.lowercased() == b.host?.lowercased() && port(a) == port(b)
    }

    enum FetchResult: Sendable {
        case response(status: Int, finalURL: URL, contentType: String?, body: [UInt8])
        case tooLarge
        case failed(ClientError)
    }

    /// One request through the client, its body read up to `limit` bytes.
    func fetch(_ url: URL, limit: Int) async throws -> FetchResult {
        do {
            let response = try await client.stream(Request(url: url, options: configuration.options))
            guard (200..<300).contains(response.status.code) else {
                await response.body.discard()
                return .response(
                    status: response.status.code, finalURL: response.info.url, contentType: nil, body: [])
            }
            if let expected = response.body.expectedLength, expected > limit {
                await response.body.discard()
                return .tooLarge
            }
            let body: [UInt8]
            do {
                body = try await response.body.collect(upTo: limit)
            } catch let error as ClientError where error.code == .protocolViolation {
                return .tooLarge
            }
            return .response(
                status: response.status.code, finalURL: response.info.url,
                contentType: response.head.headerFields[.contentType], body: body)
        } catch let error as ClientError {
            // A cancelled archive stops, whatever a request in flight made of it; only a resource's own failure
            // is recorded and passed over.
            if Task.isCancelled { throw CancellationError() }
            return .failed(error)
        }
    }
}
