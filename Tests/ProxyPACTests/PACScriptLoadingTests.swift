import FoundationEssentials
import HTTPCore
import Logging
import ProxyPAC
import Synchronization
import Testing

/// Loading the script: 200 only, at most 1 MB, UTF-8 or Latin-1, cached and fetched again after its lifetime.
@Suite("PAC script loading")
struct PACScriptLoadingTests {
    final class CannedFetcher: PACScriptFetcher {
        let download: PACScriptDownload
        let count = Mutex(0)
        init(status: Int = 200, _ body: [UInt8]) { download = PACScriptDownload(status: status, body: body) }
        func fetch(_ url: URL, maxBytes: Int) async throws -> PACScriptDownload {
            count.withLock { $0 += 1 }
            return download
        }
    }

    static let pacURL = URL(string: "http://pac.example/proxy.pac")!
    /// Keeps a loaded script for a day, so that a test counting fetches or warnings never sees a reload that only a
    /// machine busy enough to stretch the test past the default five minutes would cause.
    static let kept = PACProxyResolver.Configuration(scriptLifetime: .seconds(86_400))
    static let proxyScript = Array("function FindProxyForURL(u, h) { return 'PROXY p.example:1'; }".utf8)

    @Test func aFetchedScriptIsUsedAndKept() async throws {
        let fetcher = CannedFetcher(Self.proxyScript)
        let pac = PACProxyResolver(source: .url(Self.pacURL), fetcher: fetcher, configuration: Self.kept)
        for _ in 0..<3 { #expect(try await pac.routes(for: Self.pacURL) == [.http(host: "p.example", port: 1)]) }
        #expect(fetcher.count.withLock { $0 } == 1)
        try await pac.shutdown()
    }

    @Test func concurrentRequestsShareOneLoad() async throws {
        let fetcher = CannedFetcher(Self.proxyScript)
        let pac = PACProxyResolver(source: .url(Self.pacURL), fetcher: fetcher, configuration: Self.kept)
        let answers = try await withThrowingTaskGroup(of: [ProxyRoute].self) { group in
            for _ in 0..<20 { group.addTask { try await pac.routes(for: Self.pacURL) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 20)
        #expect(answers.allSatisfy { $0 == [.http(host: "p.example", port: 1)] })
        #expect(fetcher.count.withLock { $0 } == 1)
        try await pac.shutdown()
    }

    @Test func itIsFetchedAgainAfterItsLifetime() async throws {
        let fetcher = CannedFetcher(Self.proxyScript)
        let pac = PACProxyResolver(source: .url(Self.pacURL), fetcher: fetcher,
                                   configuration: .init(scriptLifetime: .zero))
        _ = try await pac.routes(for: Self.pacURL)
        _ = try await pac.routes(for: Self.pacURL)
        #expect(fetcher.count.withLock { $0 } == 2)
        try await pac.shutdown()
    }

    @Test func notFoundOrTooLargeMeansDirectWithOneWarning() async throws {
        let large = Array("// \(String(repeating: "x", count: 1_000_000))\n".utf8) + Self.proxyScript
        for fetcher in [CannedFetcher(status: 404, Self.proxyScript), CannedFetcher(large)] {
            let recorder = LogRecorder()
            let pac = PACProxyResolver(source: .url(Self.pacURL), fetcher: fetcher, configuration: Self.kept,
                                       logger: recorder.logger)
            #expect(try await pac.routes(for: Self.pacURL) == [.direct])
            #expect(try await pac.routes(for: Self.pacURL) == [.direct])
            #expect(recorder.messages(at: .warning).count == 1)
            #expect(fetcher.count.withLock { $0 } == 1)
            try await pac.shutdown()
        }
    }

    @Test func aMissingFileOrAURLWithoutFetcherMeansDirect() async throws {
        let missing = PACProxyResolver(source: .file("/nonexistent/proxy.pac"))
        for pac in [missing, PACProxyResolver(source: .url(Self.pacURL))] {
            #expect(try await pac.routes(for: Self.pacURL) == [.direct])
            try await pac.shutdown()
        }
    }

    @Test func latin1IsTheFallback() async throws {
        // "é" in Latin-1 (0xE9) is not UTF-8.
        let script = Array("function FindProxyForURL(u, h) { return 'PROXY caf".utf8) + [0xE9]
            + Array(".example:1'; }".utf8)
        let pac = PACProxyResolver(source: .url(Self.pacURL), fetcher: CannedFetcher(script))
        #expect(try await pac.findProxy(url: "http://a/", host: "a") == "PROXY café.example:1")
        try await pac.shutdown()
        let utf8 = PACProxyResolver(source: .url(Self.pacURL), fetcher: CannedFetcher(
            [0xEF, 0xBB, 0xBF] + Array("function FindProxyForURL(u, h) { return 'PROXY café:1'; }".utf8)))
        #expect(try await utf8.findProxy(url: "http://a/", host: "a") == "PROXY café:1")
        try await utf8.shutdown()
    }

    @Test func sourcesParseAsUsersWriteThem() {
        #expect(PACSource.parse("http://h/p.pac") == .url(URL(string: "http://h/p.pac")!))
        #expect(PACSource.parse("/etc/proxy.pac") == .file("/etc/proxy.pac"))
        #expect(PACSource.parse("file:///etc/proxy.pac") == .file("/etc/proxy.pac"))
    }
}

/// Every public type crosses into a detached task.
@Suite("ProxyPAC Sendable")
struct ProxyPACSendableTests {
    @Test func publicTypesAreSendable() async throws {
        let resolver = PACProxyResolver(source: .script("function FindProxyForURL(u, h) { return 'DIRECT'; }"))
        let values = (
            PACSource.parse("/p.pac"), PACScriptDownload(status: 200, body: []), PACProxyResolver.Configuration()
        )
        let answer = try await Task.detached {
            _ = values
            return try await resolver.findProxy(url: "http://a/", host: "a")
        }.value
        #expect(answer == "DIRECT")
        #expect(PACSource.url(URL(string: "http://u:secret@h/p.pac")!).description == "http://h/p.pac")
        try await resolver.shutdown()
    }
}
