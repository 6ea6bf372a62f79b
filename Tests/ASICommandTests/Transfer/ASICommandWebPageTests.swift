import FoundationEssentials
import TestSupport
import Testing
import WebPage

/// `asi --webpage` against nginx serving ``WebPageSite`` (a page host and a CDN host): the saved page renders
/// offline, failures of the page exit 22 and write nothing, and the limit flags reach the archiver.
@Suite("asi: --webpage against nginx", .enabled(if: NginxPeer.shouldRun))
struct ASICommandWebPageTests {
    /// The fetched references of a saved document that still name one of the servers.
    func serverReferences(_ bytes: [UInt8], _ nginx: WebPageNginxPeer, css: Bool = false) -> Set<String> {
        let document = css ? WebPageDocument(css: bytes) : WebPageDocument(html: bytes)
        return Set(
            document.references.filter { reference in
                reference.isFetched && [nginx.origin, nginx.cdnOrigin].contains { reference.text.hasPrefix($0) }
            }.map(\.text))
    }

    func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }

    @Test func localWritesThePageAndItsResourcesWithRelativeReferences() async throws {
        try await withWebPageNginx { nginx in
            let directory = try makeTemporaryDirectory(prefix: "asikit-asi-webpage")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = try await ASICommandRun.run(
                ["-s", "--webpage", "local", "-o", directory + "/out/index.html", nginx.url("/start").absoluteString])
            #expect(run.status == 0, "\(run.stderr)")
            let page = try #require(contents(directory + "/out/index.html"))
            #expect(serverReferences(page, nginx) == [nginx.origin + "/site/img/missing.png"])
            let document = WebPageDocument(html: page)
            let image = try #require(document.references.first { $0.text.hasSuffix("/site/img/a.png") })
            #expect(!image.text.hasPrefix("http"), "references are relative")
            #expect(contents(directory + "/out/" + image.text) == WebPageSite.resource("img/a.png"))
            let css = try #require(
                document.references.first { $0.kind == .stylesheet && $0.text.hasSuffix("main.css") })
            let stylesheet = try #require(contents(directory + "/out/" + css.text))
            #expect(serverReferences(stylesheet, nginx, css: true).isEmpty)
        }
    }

    @Test func dataWritesOneSelfContainedFile() async throws {
        try await withWebPageNginx { nginx in
            let directory = try makeTemporaryDirectory(prefix: "asikit-asi-webpage")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = try await ASICommandRun.run(
                ["-s", "--webpage", "data", "-o", directory + "/page.html", nginx.url("/start").absoluteString])
            #expect(run.status == 0, "\(run.stderr)")
            let page = try #require(contents(directory + "/page.html"))
            #expect(
                serverReferences(page, nginx)
                    == [nginx.origin + "/site/img/missing.png", nginx.origin + "/pages/start.html"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["page.html"])
        }
    }

    @Test func aPageThatIsNot2xxExits22AndWritesNothing() async throws {
        try await withWebPageNginx { nginx in
            let directory = try makeTemporaryDirectory(prefix: "asikit-asi-webpage")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            for mode in ["local", "data"] {
                let run = try await ASICommandRun.run(
                    ["-s", "--webpage", mode, "-o", directory + "/x/index.html", nginx.url("/missing").absoluteString])
                #expect(run.status == 22, "\(mode): \(run.stderr)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        }
    }

    @Test func theLimitFlagsReachTheArchiver() async throws {
        try await withWebPageNginx { nginx in
            let directory = try makeTemporaryDirectory(prefix: "asikit-asi-webpage")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = try await ASICommandRun.run([
                "-s", "-v", "--webpage", "data", "--webpage-max-depth", "0", "--webpage-same-host",
                "--webpage-max-size", "100000", "-o", directory + "/page.html", nginx.url("/start").absoluteString,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let page = try #require(contents(directory + "/page.html"))
            let left = serverReferences(page, nginx)
            #expect(left.contains(nginx.origin + "/site/css/main.css"), "depth 0: no stylesheet is fetched")
            #expect(left.contains(nginx.cdnOrigin + "/img/cdn.png"), "same host: the CDN is not fetched")
            #expect(!left.contains(nginx.origin + "/site/img/a.png"), "the page's own images are")
            #expect(run.stderr.contains("* webpage: tooDeep \(nginx.origin)/site/css/main.css"), "\(run.stderr)")
            #expect(!nginx.accessLog.contains { $0.hasPrefix("\(nginx.cdnPort) ") })
        }
    }

    @Test func usageErrorsExit2() async throws {
        for arguments in [
            ["--webpage", "local", "http://127.0.0.1:1/"],
            ["--webpage", "data", "http://127.0.0.1:1/a", "http://127.0.0.1:1/b"],
            ["--webpage-max-depth", "2", "http://127.0.0.1:1/"],
            ["--webpage", "zip", "http://127.0.0.1:1/"],
        ] {
            let run = try await ASICommandRun.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
        }
    }
}
