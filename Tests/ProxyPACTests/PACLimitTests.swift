import FoundationEssentials
import Glibc
import HTTPCore
import ProxyPAC
import Testing

/// The PAC caps of `Docs/Limits.md` at their boundaries: the size of a local PAC file (read no further than the
/// cap, so `/dev/zero` is refused too) and the routes taken from one answer.
@Suite struct PACLimitTests {
    static let url = URL(string: "http://www.example.com/")!
    static let script = "function FindProxyForURL(u, h) { return 'PROXY p.example:1'; }\n"

    /// Writes `script` padded with a trailing comment to exactly `size` bytes; returns the path.
    static func file(size: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.path + "/asikit-pac-\(UInt64.random(in: 0...UInt64.max)).pac"
        let padding = size - script.utf8.count - 3
        let text = script + "//" + String(repeating: "x", count: padding) + "\n"
        #expect(text.utf8.count == size)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    @Test func aFileOfExactlyTheCapIsUsedOneByteMoreIsRefused() async throws {
        let configuration = PACProxyResolver.Configuration(evaluationTimeLimit: .seconds(20), maxScriptBytes: 4096)
        let fits = try Self.file(size: 4096)
        defer { unlink(fits) }
        let accepted = PACProxyResolver(source: .file(fits), configuration: configuration)
        #expect(try await accepted.routes(for: Self.url) == [.http(host: "p.example", port: 1)])
        try await accepted.shutdown()

        let tooLarge = try Self.file(size: 4097)
        defer { unlink(tooLarge) }
        let refused = PACProxyResolver(source: .file(tooLarge), configuration: configuration)
        let error = try await #require(throws: ClientError.self) {
            _ = try await refused.findProxy(url: Self.url.absoluteString, host: "www.example.com")
        }
        #expect(error.code == .protocolViolation)
        #expect(error.message == "PAC file is larger than 4096 bytes")
        #expect(try await refused.routes(for: Self.url) == [.direct])
        try await refused.shutdown()
    }

    @Test func anEndlessFileIsReadOnlyToTheCap() async throws {
        let pac = PACProxyResolver(source: .file("/dev/zero"))
        let error = try await #require(throws: ClientError.self) {
            _ = try await pac.findProxy(url: Self.url.absoluteString, host: "www.example.com")
        }
        #expect(error.message == "PAC file is larger than 1000000 bytes")
        try await pac.shutdown()
    }

    @Test func theFirst32RoutesOfAnAnswerAreKept() {
        let entries = (1...40).map { "PROXY p\($0).example:8080" }
        let routes = PACAnswer.routes(from: entries.joined(separator: "; "))
        #expect(PACAnswer.maxRoutes == 32)
        #expect(routes.count == 32)
        #expect(routes.first == .http(host: "p1.example", port: 8080))
        #expect(routes.last == .http(host: "p32.example", port: 8080))
        // Unreadable entries do not count toward the cap.
        let mixed = PACAnswer.routes(from: (["BOGUS x"] + entries.prefix(32)).joined(separator: ";"))
        #expect(mixed.count == 32)
        #expect(mixed.last == .http(host: "p32.example", port: 8080))
    }
}
