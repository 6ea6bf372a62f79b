import FoundationEssentials
import HTTPTesting
import TestSupport
import Testing

/// `asi --pac` routes by a PAC file (tinyproxy's log proves which request went through it), and `--pac-test`
/// prints the raw answer. Skipped without tinyproxy unless `ASI_REQUIRE_PEERS=1`.
@Suite("asi: --pac", .enabled(if: TinyproxyPeer.shouldRun))
struct ASICommandPACTests {
    let directory: String

    init() throws { directory = try makeTemporaryDirectory(prefix: "asikit-pac") }

    func pacFile(_ script: String, name: String = "proxy.pac") -> String {
        let path = directory + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(script.utf8))
        return path
    }

    @Test func aPACFileSendsOnePathThroughTheProxy() async throws {
        let origin = try LoopbackServer { _ in .ok("origin") }
        defer { origin.shutdown() }
        try await withTinyproxy { proxy in
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let pac = pacFile("""
                function FindProxyForURL(url, host) {
                    return shExpMatch(url, "*/proxied*") ? "PROXY 127.0.0.1:\(proxy.port); DIRECT" : "DIRECT";
                }
                """)
            let run = try await ASICommandRun.run(
                ["--pac", pac, origin.url("/proxied").absoluteString, origin.url("/direct").absoluteString])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.output == "originorigin")
            #expect(proxy.log.contains("/proxied"), "\(proxy.log)")
            #expect(!proxy.log.contains("/direct"))
        }
    }

    @Test func pacTestPrintsTheRawAnswer() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pac = pacFile("function FindProxyForURL(u, h) { return '  PROXY  ' + h + ':1 ;DIRECT'; }")
        let run = try await ASICommandRun.run(["--pac", pac, "--pac-test", "http://www.example.com:8080/x"])
        #expect(run.status == 0)
        #expect(run.output == "  PROXY  www.example.com:1 ;DIRECT\n")
        let broken = try await ASICommandRun.run(
            ["--pac", pacFile("function (", name: "broken.pac"), "--pac-test", "http://a/"])
        #expect(broken.status == 0)
        #expect(broken.output == "DIRECT\n")
        #expect(broken.stderr.contains("PAC"))
    }
}
