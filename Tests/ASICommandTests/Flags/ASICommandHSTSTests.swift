import FoundationEssentials
import TestSupport
import Testing

/// `asi --hsts FILE` beside `curl --hsts FILE` against nginx sending `Strict-Transport-Security` over TLS: each
/// learns the host into curl's file format, each upgrades `http://` with the other's file (the explicit port kept,
/// also on a redirect hop), and `max-age=0` removes the host.
@Suite("asi: --hsts as curl's", .enabled(if: NginxPeer.shouldRun), .serialized)
struct ASICommandHSTSTests {
    static let curl = ChildProcess.find("curl")

    /// Runs curl, returning its exit status and stdout.
    static func curl(_ arguments: [String], in directory: String) async throws -> (status: Int32, output: String) {
        let curl = try #require(Self.curl, "curl is needed")
        let out = directory + "/curl-\(UUID().uuidString)"
        let status = try await offPool {
            try ChildProcess.run(curl, ["-s", "-S", "-o", out] + arguments, logPath: directory + "/curl.log")
        }
        return (status, String(decoding: DataPath.read(out) ?? [], as: UTF8.self))
    }

    /// The entry lines of an HSTS file (comments dropped).
    static func lines(_ path: String) -> [String] {
        String(decoding: DataPath.read(path) ?? [], as: UTF8.self).split(separator: "\n")
            .map(String.init).filter { !$0.hasPrefix("#") }
    }

    @Test func bothLearnTheHostAndUpgradeWithTheOthersFile() async throws {
        try await withHSTSNginx { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let ca = ["--cacert", nginx.certificates.caPath]
            let curlFile = directory + "/curl-hsts.txt"
            let asiFile = directory + "/asi-hsts.txt"
            let sts = "https://localhost:\(nginx.tlsPort)/sts"
            let before = Date()
            let learned = try await Self.curl(ca + ["--hsts", curlFile, sts], in: directory)
            #expect(learned.status == 0 && learned.output == "sts\n")
            let asiLearned = try await ASICommandRun.run(["-s", "-S"] + ca + ["--hsts", asiFile, sts])
            #expect(asiLearned.status == 0 && asiLearned.output == "sts\n", "\(asiLearned.stderr)")
            let after = Date()

            // The same line in both files: a leading dot for includeSubDomains, the expiry an hour on, in UTC.
            let curlLines = Self.lines(curlFile)
            let asiLines = Self.lines(asiFile)
            #expect(curlLines.count == 1 && asiLines.count == 1, "curl: \(curlLines), asi: \(asiLines)")
            #expect(String(DataPath.read(asiFile).map { String(decoding: $0, as: UTF8.self) } ?? "")
                .hasPrefix("# Your HSTS cache. https://curl.se/docs/hsts.html\n"))
            for line in curlLines + asiLines {
                #expect(line.hasPrefix(".localhost \""), "\(line)")
                let stamp = try #require(Self.date(line), "\(line)")
                #expect(stamp >= before.addingTimeInterval(3_600 - 1) && stamp <= after.addingTimeInterval(3_600 + 1),
                        "\(line)")
            }

            // http:// to the TLS port: without HSTS nginx answers plain HTTP with its 400 page...
            let plain = "http://localhost:\(nginx.tlsPort)/"
            let unknown = try await ASICommandRun.run(["-s", "-S"] + ca + [plain])
            #expect(!unknown.output.contains("secure"), "\(unknown.output)")
            // ...with each other's file both go to https on the same port.
            let asiUpgraded = try await ASICommandRun.run(["-s", "-S"] + ca + ["--hsts", curlFile, plain])
            #expect(asiUpgraded.status == 0 && asiUpgraded.output == "secure\n", "\(asiUpgraded.stderr)")
            let curlUpgraded = try await Self.curl(ca + ["--hsts", asiFile, plain], in: directory)
            #expect(curlUpgraded.status == 0 && curlUpgraded.output == "secure\n")
            let upgradedRequests = nginx.accessLog.filter { $0.hasPrefix("https \(nginx.tlsPort) GET / 200") }
            #expect(upgradedRequests.count == 2, "\(nginx.accessLog)")
        }
    }

    @Test func aRedirectHopIsUpgradedAndMaxAgeZeroForgetsTheHost() async throws {
        try await withHSTSNginx { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let ca = ["--cacert", nginx.certificates.caPath]
            let redirect = "http://127.0.0.1:\(nginx.plainPort)/to-tls-port"
            for client in ["curl", "asi"] {
                let file = directory + "/\(client)-hsts.txt"
                func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
                    if client == "curl" { return try await Self.curl(ca + ["--hsts", file] + arguments, in: directory) }
                    let run = try await ASICommandRun.run(["-s", "-S"] + ca + ["--hsts", file] + arguments)
                    return (run.status, run.output)
                }
                let learned = try await run(["https://localhost:\(nginx.tlsPort)/sts"])
                #expect(learned.status == 0, "\(client)")
                let followed = try await run(["-L", redirect])
                #expect(followed.status == 0 && followed.output == "secure\n", "\(client): \(followed)")
                let cleared = try await run(["https://localhost:\(nginx.tlsPort)/clear"])
                #expect(cleared.status == 0 && cleared.output == "clear\n", "\(client)")
                #expect(Self.lines(file).isEmpty, "\(client): \(Self.lines(file))")
                let notUpgraded = try await run(["-L", redirect])
                #expect(notUpgraded.output != "secure\n", "\(client): forgotten after max-age=0")
            }
        }
    }

    /// The date in a line `host "YYYYMMDD HH:MM:SS"`, read as UTC.
    static func date(_ line: String) -> Date? {
        guard let open = line.firstIndex(of: "\"") else { return nil }
        let digits = line[line.index(after: open)...].filter(\.isNumber).compactMap(\.wholeNumberValue)
        guard digits.count == 14 else { return nil }
        func value(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + $1 } }
        var components = DateComponents()
        (components.year, components.month, components.day) = (value(0..<4), value(4..<6), value(6..<8))
        (components.hour, components.minute, components.second) = (value(8..<10), value(10..<12), value(12..<14))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components)
    }
}
