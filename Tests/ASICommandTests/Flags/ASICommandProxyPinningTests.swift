import FoundationEssentials
import HTTPTesting
import TestSupport
import Testing

/// `asi --proxy-pinnedpubkey` beside curl's, through squid's TLS port (an `https://` proxy whose key is the test
/// server key): the right pin passes, a wrong one fails with curl's 90 before the request reaches the origin.
///
/// curl's command-line tool ignored `--proxy-pinnedpubkey` until 8.10 (the option was never passed to libcurl:
/// curl/curl#14438), so Debian 12's curl 7.88 goes through with a wrong pin; the test expects that of curl before
/// 8.10 and 90 from 8.10 on.
@Suite("asi: pinned HTTPS proxy key", .serialized, .enabled(if: SquidPeer.shouldRun && TrustMatrixTools.canRun))
struct ASICommandProxyPinningTests {
    @Test func theProxysKeyIsPinnedAsCurlPinsIt() async throws {
        let curl = try #require(TrustMatrixTools.curl, "curl is needed")
        let certificates = try TestCertificates.shared()
        let pin = try await TrustMatrixCertificates.pin(ofKey: certificates.serverKeyPath)
        let wrong = "sha256//" + Data(repeating: 9, count: 32).base64EncodedString()
        let origin = try LoopbackServer { _ in .ok("from the origin") }
        defer { origin.shutdown() }
        try await withSquid(tls: certificates) { squid in
            let port = try #require(squid.httpsPort)
            let curlPins = try Self.curlPinsProxies(curl)
            for (pins, exit) in [(pin, Int32(0)), (wrong, 90)] {
                let arguments = [
                    "-s", "-S", "-o", "/dev/null", "-m", "90", "-y", "60", "-x", "https://localhost:\(port)",
                    "--proxy-cacert", certificates.caPath, "-U", "\(SquidPeer.user):\(SquidPeer.password)",
                    "--proxy-pinnedpubkey", pins, origin.url("/pinned").absoluteString,
                ]
                let asi = try await ASICommandRun.run(arguments, environment: ASICommandSquidProxyTests.cleared)
                let curlRun = try await ASICommandTrustMatrixTests.runCurl(curl, arguments)
                #expect(asi.status == exit, "asi: \(asi.stderr)")
                let curlExit = exit == 90 && !curlPins ? 0 : exit
                #expect(curlRun.status == curlExit, "curl: \(curlRun.stderr)")
            }
            let reached = origin.requests.count
            #expect(reached == (curlPins ? 2 : 3), "only right pins reach the origin: \(reached)")
        }
    }

    /// Whether this curl honours `--proxy-pinnedpubkey` (8.10 or later).
    static func curlPinsProxies(_ curl: String) throws -> Bool {
        let scratch = try makeTemporaryDirectory(prefix: "asikit-curl-version")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        _ = try ChildProcess.run(curl, ["-V"], logPath: scratch + "/v")
        let text = String(decoding: FileManager.default.contents(atPath: scratch + "/v") ?? Data(), as: UTF8.self)
        let version = text.split(separator: " ").dropFirst().first.map { $0.split(separator: ".").compactMap { Int($0) } }
        guard let version, version.count >= 2 else { return true }
        return version[0] > 8 || (version[0] == 8 && version[1] >= 10)
    }
}
