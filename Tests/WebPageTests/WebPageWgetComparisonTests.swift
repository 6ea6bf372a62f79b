import FoundationEssentials
import HTTPCore
import HTTPPipeline
import SocketTransport
import TestSupport
import Testing
import WebPageArchiving

/// `wget -p -k -H` and the archiver on the same fixture site: which URLs each one requests. The differences are
/// the ones `Docs/Guide/15-WebPage.md` explains; a change in either shows here.
@Suite("WebPage: compared with wget -p -k -H", .enabled(if: NginxPeer.shouldRun && ChildProcess.find("wget") != nil))
struct WebPageWgetComparisonTests {
    /// The paths (with the CDN's prefixed `cdn:`) requested since `start` lines of the access log.
    func requested(_ nginx: WebPageNginxPeer, from start: Int) -> Set<String> {
        Set(
            nginx.accessLog.dropFirst(start).compactMap { line in
                let fields = line.split(separator: " ")
                guard fields.count == 4 else { return nil }
                return (fields[0] == "\(nginx.cdnPort)" ? "cdn:" : "") + fields[2]
            })
    }

    @Test func wgetAndTheArchiverFetchWhatTheGuideSays() async throws {
        try await withWebPageNginx { nginx in
            let directory = try makeTemporaryDirectory(prefix: "asikit-webpage-wget")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let wget = try #require(ChildProcess.find("wget"))
            let status = try ChildProcess.run(
                wget,
                [
                    "-p", "-k", "-H", "-e", "robots=off", "-q", "-P", directory + "/wget",
                    nginx.url("/start").absoluteString,
                ],
                logPath: directory + "/wget.log")
            #expect(status == 0 || status == 8, "wget exits 8 for the 404")
            let byWget = requested(nginx, from: 0)
            let mark = nginx.accessLog.count
            let client = Client(transport: POSIXTransport())
            defer { Task { try? await client.shutdown() } }
            _ = try await WebPageArchiver(client: client).archive(nginx.url("/start"), mode: .dataURIs)
            let byArchiver = requested(nginx, from: mark)
            let onlyArchiver = byArchiver.subtracting(byWget)
            let onlyWget = byWget.subtracting(byArchiver)
            print("both:", byWget.intersection(byArchiver).sorted())
            print("only the archiver:", onlyArchiver.sorted())
            print("only wget:", onlyWget.sorted())
            // The differences the guide explains (wget 1.21): wget does not read data-src, <link rel=preload>,
            // SVG <image>/<use>, or <source srcset> in a <picture>; it reads `&quot;` in a style attribute as part
            // of the URL; it follows an @import in a stylesheet but not the url() of the stylesheet it imports, and
            // a frame's frame but not that frame's images; and it finds <img> inside an inline script's string.
            #expect(
                onlyArchiver == [
                    "/site/img/lazy.png", "/site/img/preload.png", "/site/img/svgimage.png", "/site/img/sprite.svg",
                    "cdn:/img/wide.png", "cdn:/img/narrow.png", "/site/img/styleattr.png", "/site/img/nested.png",
                    "/site/img/deeper.png",
                ], "\(onlyArchiver.sorted())")
            #expect(onlyWget == ["/site/&quot;img/styleattr.png&quot;", "/site/img/never.png"], "\(onlyWget.sorted())")
            #expect(byArchiver.contains("/site/img/missing.png") && byWget.contains("/site/img/missing.png"))
            #expect(!byArchiver.contains("/site/other.html") && !byArchiver.contains("/robots.txt"))
        }
    }
}
