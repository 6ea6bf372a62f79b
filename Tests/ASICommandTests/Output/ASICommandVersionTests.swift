import FoundationEssentials
import GzipCodec
import HTTPTesting
import Testing

/// `-V, --version`, as curl's `-V`: asi's version (the one in the User-Agent), the libraries read at run time and
/// the features, exit 0, and nothing transferred.
@Suite("asi: --version")
struct ASICommandVersionTests {
    @Test func versionPrintsTheLibrariesAndFeaturesAndExitsZeroWithoutTransferring() async throws {
        let server = try LoopbackServer { _ in .ok("body") }
        defer { server.shutdown() }
        let fetched = try await ASICommandRun.run(["-s", "-o", "/dev/null", server.url("/").absoluteString])
        let agent = try #require(server.requests.first?.header("User-Agent"))
        let framework = try #require(agent.split(separator: " ").last.map(String.init))  // ASIKit/<version>
        #expect(fetched.status == 0 && framework.hasPrefix("ASIKit/"), "\(agent)")

        for flag in ["-V", "--version"] {
            let run = try await ASICommandRun.run([flag, server.url("/not-fetched").absoluteString])
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.output.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(run.output)")
            let first = try #require(lines.first)
            let version = framework.dropFirst("ASIKit/".count)
            #expect(first.hasPrefix("asi \(version) ("), "one version for asi and the User-Agent: \(first)")
            #expect(first.contains(" \(framework) "))
            #expect(first.contains(" zlib/\(ZlibContentCodec.zlibVersion) "), "zlib read at run time: \(first)")
            #expect(first.contains(" OpenSSL/3.") || first.contains(" OpenSSL/1."), "\(first)")
            #expect(first.contains(" libpsl/"))
            #expect(first.contains(" brotli/1.") && first.contains(" zstd/1."), "opened at run time: \(first)")
            #expect(lines.dropFirst().first == "Protocols: http https")
            let features = Set((lines.last ?? "").split(separator: " ").dropFirst().map(String.init))
            for feature in ["gzip", "deflate", "Digest", "NTLM", "PAC", "cookies", "cache", "S3", "PSL", "brotli", "zstd"] {
                #expect(features.contains(feature), "\(feature) missing: \(lines.last ?? "")")
            }
        }
        #expect(server.requests.count == 1, "-V transfers nothing")
    }
}
