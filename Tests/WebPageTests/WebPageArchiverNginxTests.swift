import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import TestSupport
import Testing
import WebPageArchiving

/// The archiver against nginx serving ``WebPageSite`` on a page host and a CDN host.
@Suite("WebPage: archives against nginx", .enabled(if: NginxPeer.shouldRun))
struct WebPageArchiverNginxTests {
    static let sitePaths = [
        "favicon.png", "img/preload.png", "img/bg.png", "img/body.png", "img/a.png", "img/a-1x.png", "img/a-2x.png",
        "img/lazy.png", "img/placeholder.png", "img/poster.png", "img/button.png", "img/object.svg", "img/embed.svg",
        "img/sprite.svg", "img/svgimage.png", "img/styleattr.png", "img/noscript.png", "img/css-bg.png",
        "img/nested.png", "img/imported.png", "img/inframe.png", "img/deeper.png", "img/redirected.png",
        "media/clip.webm", "js/app.js", "fonts/f.woff",
    ]

    func archive(
        _ nginx: WebPageNginxPeer, _ path: String, mode: WebPageArchiveMode,
        configuration: WebPageArchiver.Configuration = .default, cache: (any CacheStore)? = nil
    ) async throws -> ArchivedWebPage {
        let client = Client(transport: POSIXTransport(), cache: cache)
        defer { Task { try? await client.shutdown() } }
        return try await WebPageArchiver(client: client, configuration: configuration)
            .archive(nginx.url(path), mode: mode)
    }

    func saved(_ page: ArchivedWebPage, _ path: String) -> ArchivedResource? {
        page.resources.first { ($0.finalURL ?? $0.url).path(percentEncoded: true).hasSuffix(path) }
    }

    @Test func localFilesRenderOfflineWithByteIdenticalResources() async throws {
        try await withWebPageNginx { nginx in
            let directory = try makeTemporaryDirectory(prefix: "asikit-webpage-local")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let page = try await archive(
                nginx, "/start", mode: .localFiles(directory: directory, pageFile: "index.html"))
            #expect(page.url.path() == "/pages/start.html", "the redirect was followed")
            #expect(saved(page, "/img/missing.png")?.outcome == .status(404))
            for path in Self.sitePaths {
                let resource = try #require(saved(page, "/site/" + path), "\(path) was not found")
                #expect(resource.outcome == .saved, "\(path): \(resource.outcome)")
                guard let local = resource.localPath, resource.kind != .stylesheet, resource.kind != .frame else {
                    continue
                }
                let bytes = FileManager.default.contents(atPath: directory + "/" + local).map { Array($0) }
                #expect(Bool(bytes == WebPageSite.resource(path)), "\(path) differs on disk")
            }
            for cdn in ["wide", "narrow", "cdn"] {
                let resource = try #require(saved(page, "/img/\(cdn).png"))
                let bytes = FileManager.default.contents(atPath: directory + "/" + (resource.localPath ?? "")).map {
                    Array($0)
                }
                #expect(Bool(bytes == WebPageSite.resource("cdn/\(cdn).png")), "\(cdn)")
            }
            let written = try #require(
                FileManager.default.contents(atPath: directory + "/index.html").map { Array($0) })
            #expect(Bool(written == page.bytes))
            let origins = [nginx.origin, nginx.cdnOrigin]
            #expect(
                WebPageArchiveChecks.serverReferences(in: written, css: false, origins: origins)
                    == [nginx.origin + "/site/img/missing.png"])
            // Every saved document (frames, stylesheets) points at local copies too, and every relative reference
            // names a file that exists.
            for resource in page.resources where resource.outcome == .saved {
                guard let local = resource.localPath, resource.kind == .frame || resource.kind == .stylesheet else {
                    continue
                }
                let bytes = try #require(
                    FileManager.default.contents(atPath: directory + "/" + local).map { Array($0) })
                let css = resource.kind == .stylesheet
                #expect(WebPageArchiveChecks.serverReferences(in: bytes, css: css, origins: origins) == [], "\(local)")
                try expectLocalTargetsExist(bytes, css: css, at: directory + "/" + local)
            }
            try expectLocalTargetsExist(written, css: false, at: directory + "/index.html")
            // Outside the rewritten values the page keeps its bytes: the inline script, the comment, the title.
            let original = try #require(nginx.served("pages/start.html"))
            let changed =
                (WebPageDocument(html: original).references.map(\.text) + [
                    #"<base href="/site/">"#, "other.html?a=1&amp;b=2",
                ]).map {
                    Array($0.utf8)
                }
            #expect(Bool(WebPageArchiveChecks.keepsBytesOutside(changed, original: original, output: written)))
            #expect(
                String(decoding: written, as: UTF8.self).contains(
                    #"<script>var s = "<img src='img/never.png'>"; document.write('url(img/never2.png)');</script>"#))
            #expect(!String(decoding: written, as: UTF8.self).contains("<base"))
            #expect(
                String(decoding: written, as: UTF8.self).contains(
                    #"<a href="\#(nginx.origin)/site/other.html?a=1&amp;b=2">"#))
            #expect(
                !nginx.accessLog.contains {
                    $0.contains("never") || $0.contains("commented") || $0.contains("other.html")
                })
            #expect(!nginx.accessLog.contains { $0.contains("favicon.ico") || $0.contains("robots.txt") })
            // Cycles end: the page (which frames itself), each frame (frame.html and deeper.html frame each other)
            // and each stylesheet (main.css and nested.css import each other) is requested once.
            for path in [
                "/pages/start.html", "/site/frames/frame.html", "/site/frames/deeper.html",
                "/site/css/main.css", "/site/css/nested.css",
            ] {
                #expect(nginx.accessLog.filter { $0.hasSuffix(" \(path) 200") }.count == 1, "\(path)")
            }
        }
    }

    /// Each relative reference in a local document names a file in the archive.
    func expectLocalTargetsExist(_ bytes: [UInt8], css: Bool, at path: String) throws {
        let document = css ? WebPageDocument(css: bytes) : WebPageDocument(html: bytes)
        let base = URL(filePath: path)
        for reference in document.references where reference.isFetched {
            guard !reference.text.hasPrefix("http"), !reference.text.hasPrefix("data:") else { continue }
            let target = try #require(URL(string: reference.text, relativeTo: base))
            #expect(
                FileManager.default.fileExists(atPath: target.path(percentEncoded: false)),
                "\(reference.text) in \(path)")
        }
    }

    @Test func dataURIsInlineEveryResourceAndStylesheetsRecursively() async throws {
        try await withWebPageNginx { nginx in
            let page = try await archive(nginx, "/start", mode: .dataURIs)
            let document = WebPageDocument(html: page.bytes)
            var inlined: [[UInt8]] = []
            for reference in document.references where reference.isFetched {
                if let bytes = WebPageArchiveChecks.dataURIBytes(reference.text) { inlined.append(bytes) }
            }
            for path in [
                "img/a.png", "img/a-2x.png", "img/lazy.png", "img/styleattr.png", "img/noscript.png",
                "img/sprite.svg", "img/bg.png", "img/redirected.png", "js/app.js",
            ] {
                #expect(Bool(inlined.contains(WebPageSite.resource(path))), "\(path) is not inlined")
            }
            #expect(Bool(inlined.contains(WebPageSite.resource("cdn/wide.png"))))
            // The page's own iframe is a cycle and the 404 was not saved: the only server references left.
            #expect(
                Set(
                    WebPageArchiveChecks.serverReferences(
                        in: page.bytes, css: false, origins: [nginx.origin, nginx.cdnOrigin]))
                    == [nginx.origin + "/site/img/missing.png", nginx.origin + "/pages/start.html"])
            let main = try #require(
                document.references.first { $0.kind == .stylesheet && $0.text.hasPrefix("data:text/css") })
            let css = try #require(WebPageArchiveChecks.dataURIBytes(main.text))
            let cssDocument = WebPageDocument(css: css)
            let cssBackground = try #require(cssDocument.references.first { $0.kind == .cssResource })
            #expect(WebPageArchiveChecks.dataURIBytes(cssBackground.text) == WebPageSite.resource("img/css-bg.png"))
            let nested = try #require(cssDocument.references.first { $0.kind == .stylesheet })
            #expect(nested.text.hasPrefix("data:text/css;base64,"), "@import url(\"nested.css\") is inlined too")
            let frame = try #require(
                document.references.first { $0.kind == .frame && $0.text.hasPrefix("data:text/html") })
            let frameDocument = WebPageDocument(html: try #require(WebPageArchiveChecks.dataURIBytes(frame.text)))
            #expect(
                frameDocument.references.contains {
                    WebPageArchiveChecks.dataURIBytes($0.text) == WebPageSite.resource("img/inframe.png")
                })
        }
    }

    @Test func cycleDepthAndSizeLimitsAreKept() async throws {
        try await withWebPageNginx { nginx in
            let shallow = try await archive(
                nginx, "/start", mode: .dataURIs, configuration: try .init(maxDepth: 1))
            #expect(saved(shallow, "/site/frames/frame.html")?.outcome == .saved)
            #expect(saved(shallow, "/site/img/inframe.png")?.outcome == .saved, "a fetched frame's images are fetched")
            #expect(saved(shallow, "/site/frames/deeper.html")?.outcome == .tooDeep)
            #expect(saved(shallow, "/site/css/nested.css")?.outcome == .tooDeep)
            #expect(saved(shallow, "/site/img/deeper.png") == nil)
            let flat = try await archive(nginx, "/start", mode: .cacheOnly, configuration: try .init(maxDepth: 0))
            #expect(saved(flat, "/site/css/main.css")?.outcome == .tooDeep)
            #expect(saved(flat, "/site/img/a.png")?.outcome == .saved)
            #expect(flat.bytes == nginx.served("pages/start.html"), "cacheOnly leaves the page untouched")

            let size = WebPageSite.resource("x").count + 20
            let capped = try await archive(
                nginx, "/start", mode: .dataURIs, configuration: try .init(maxTotalBytes: size * 3))
            #expect(capped.totalBytes <= size * 3)
            let outcomes = capped.resources.map(\.outcome)
            let firstOver = try #require(outcomes.firstIndex(of: .overTotalSize))
            #expect(outcomes[..<firstOver].allSatisfy { $0 != .overTotalSize })
            #expect(
                outcomes[firstOver...].contains(.saved), "smaller resources after the first that did not fit are saved")

            let few = try await archive(
                nginx, "/start", mode: .cacheOnly, configuration: try .init(maxResources: 3, sameHostOnly: true))
            #expect(few.resources.filter { $0.outcome == .saved }.count == 3, "only what was sent for counts")
            #expect(few.resources.contains { $0.outcome == .tooMany })

            let sameHost = try await archive(
                nginx, "/start", mode: .dataURIs, configuration: try .init(sameHostOnly: true))
            #expect(saved(sameHost, "/img/cdn.png")?.outcome == .otherHost)
            #expect(
                String(decoding: sameHost.bytes, as: UTF8.self).contains(
                    #"<img src="\#(nginx.cdnOrigin)/img/cdn.png">"#))
        }
    }

    @Test func sameHostRefusesAResourceRedirectedToAnotherHost() async throws {
        try await withWebPageNginx { nginx in
            let page = try await archive(
                nginx, "/samehost/page.html", mode: .dataURIs, configuration: try .init(sameHostOnly: true))
            #expect(page.resources.map(\.outcome) == [.otherHost, .saved])
            #expect(String(decoding: page.bytes, as: UTF8.self).contains(#"<img src="\#(nginx.origin)/to-cdn.png">"#))
            let open = try await archive(nginx, "/samehost/page.html", mode: .dataURIs)
            #expect(open.resources.map(\.outcome) == [.saved, .saved])
        }
    }

    @Test func aNonUTF8PageKeepsItsBytesAndFetchesItsNonASCIIResource() async throws {
        try await withWebPageNginx { nginx in
            let directory = try makeTemporaryDirectory(prefix: "asikit-webpage-latin")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let page = try await archive(
                nginx, "/latin/page.html", mode: .localFiles(directory: directory, pageFile: "p.html"))
            #expect(page.charset == .windows1252)
            let cafe = try #require(page.resources.first)
            #expect(cafe.url.absoluteString.hasSuffix("/latin/caf%C3%A9.png"))
            #expect(cafe.outcome == .saved)
            #expect(
                FileManager.default.contents(atPath: directory + "/" + (cafe.localPath ?? "")).map { Array($0) }
                    == WebPageSite.resource("latin/café.png"))
            #expect(page.resources.last?.outcome == .saved, "a%20b.png")
            let original = try #require(nginx.served("latin/page.html"))
            let changed = [Array("caf".utf8) + [0xE9] + Array(".png".utf8), Array("a%20b.png".utf8)]
            #expect(Bool(WebPageArchiveChecks.keepsBytesOutside(changed, original: original, output: page.bytes)))
            #expect(page.bytes.starts(with: Array("<html><head><title>Gr".utf8) + [0xFC, 0xDF]))
            #expect(
                WebPageArchiveChecks.find([0x63, 0x61, 0x66, 0xE9, 0x3C], in: page.bytes, from: 0) != nil,
                "café</p> in Latin-1")
        }
    }

    @Test func thePerResourceCapLeavesLargeResourcesAbsolute() async throws {
        try await withWebPageNginx { nginx in
            // The Latin-1 page is 112 bytes and its images 281 and 279.
            let page = try await archive(
                nginx, "/latin/page.html", mode: .dataURIs, configuration: try .init(maxResourceBytes: 200))
            #expect(page.resources.map(\.outcome) == [.tooLarge, .tooLarge])
            #expect(page.totalBytes == 0)
            let text = page.charset.decode(page.bytes)
            #expect(text.contains(#"<img src="\#(nginx.origin)/latin/caf%C3%A9.png">"#), "\(text)")
            let error = await #expect(throws: WebPageArchiveError.self) {
                _ = try await archive(
                    nginx, "/latin/page.html", mode: .dataURIs, configuration: try .init(maxResourceBytes: 100))
            }
            #expect(error?.code == .pageTooLarge)
        }
    }

    @Test func hostileMarkupAndFailuresNeverFailThePage() async throws {
        try await withWebPageNginx { nginx in
            let page = try await archive(nginx, "/hostile/page.html", mode: .dataURIs)
            #expect(page.resources.map { $0.url.lastPathComponent } == ["ok.png"])
            #expect(page.resources.first?.outcome == .saved)
            #expect(!nginx.accessLog.contains { $0.contains("nope") })
            let error = await #expect(throws: WebPageArchiveError.self) {
                _ = try await archive(nginx, "/no/such/page.html", mode: .dataURIs)
            }
            #expect(error?.code == .pageStatus && error?.status == 404)
        }
    }

    @Test func theArchiveNeverReplacesThePlainCacheEntry() async throws {
        try await withWebPageNginx { nginx in
            let cache = MemoryCacheStore()
            let page = try await archive(nginx, "/pages/start.html", mode: .dataURIs, cache: cache)
            let served = try #require(nginx.served("pages/start.html"))
            let bodies = cache.entries.values.map(\.body)
            #expect(!bodies.contains(page.bytes))
            #expect(bodies.contains(served), "the page is cached as served")
            #expect(bodies.contains(WebPageSite.resource("img/a.png")), "resources are cached through the client")
        }
    }
}
