public import FoundationEssentials
import HTTPCore
public import HTTPPipeline
import WebPage

/// Saves a web page and everything it needs to render offline: the heir of ASIHTTPRequest's ASIWebPageRequest.
///
/// It fetches the page through a `Client` (so every request shares its cookies, credentials, proxies, throttle
/// and cache), finds what a browser would fetch to render it (``WebPage/WebPageDocument``), fetches those
/// resources with a bounded width, follows frames, stylesheets and `@import`s down to a depth limit, and writes
/// the result in one of three modes (``WebPageArchiveMode``). References are rewritten in place at their byte
/// offsets, so the rest of the page keeps its bytes and charset.
///
/// ```swift
/// let client = Client(transport: .posix(), cache: DiskCacheStore(directory: "cache"))
/// let archiver = WebPageArchiver(client: client)
/// let page = try await archiver.archive(URL(string: "https://example.com/")!, mode: .localFiles(
///     directory: "saved", pageFile: "index.html"))
/// ```
///
/// Safe by default (``Configuration``): a depth limit (5), a total size cap (64 MiB), a per-resource cap, a cap on
/// the number of resources, and a visited set, so cycles end; only `http` and `https` are fetched. A resource that
/// fails leaves its reference absolute and never fails the page. The archive never touches the cache: the client
/// caches each response as received, so a later plain request for the page's URL gets the page as served.
public struct WebPageArchiver: Sendable {
    /// The client every request goes through.
    public let client: Client
    /// The limits and request options.
    public let configuration: Configuration

    /// Creates an archiver.
    /// - Parameters:
    ///   - client: The client requests go through.
    ///   - configuration: The limits and request options; the defaults by default.
    public init(client: Client, configuration: Configuration = .default) {
        self.client = client
        self.configuration = configuration
    }

    /// Fetches a page and its resources and saves them.
    /// - Parameters:
    ///   - url: The page's URL (`http` or `https`).
    ///   - mode: What to produce.
    /// - Returns: The page as saved, and what happened to each resource.
    /// - Throws: ``WebPageArchiveError`` when the page does not arrive with a 2xx status after redirects
    ///   (``WebPageArchiveError/Code/pageStatus``; nothing is written), is too large, or a file cannot be written;
    ///   `ClientError` when the page's request fails; `CancellationError` when the task is cancelled.
    public func archive(_ url: URL, mode: WebPageArchiveMode) async throws -> ArchivedWebPage {
        var crawl = ArchiveCrawl(client: client, configuration: configuration)
        try await crawl.run(from: url)
        var assembly = ArchiveAssembly(crawl: crawl)
        let bytes: [UInt8]
        switch mode {
        case .cacheOnly:
            bytes = crawl.nodes[0].bytes
        case .dataURIs:
            bytes = assembly.inlined(0)
        case .localFiles(let directory, let pageFile):
            bytes = try assembly.writeLocal(directory: directory, pageFile: pageFile)
        }
        let resources = crawl.nodes.dropFirst().map { assembly.resource(for: $0) }
        return ArchivedWebPage(
            url: crawl.nodes[0].finalURL ?? url, bytes: bytes, charset: crawl.nodes[0].document?.charset ?? .utf8,
            resources: resources, totalBytes: crawl.totalBytes)
    }
}
