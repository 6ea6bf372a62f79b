import FoundationEssentials
import HTTPCore
@testable import SocketTransport
import Testing

/// The transport's one-entry cache of the last URL taken apart: it answers what ``RequestTarget/init(url:)`` would,
/// for the URL asked last and for any other.
@Suite struct RequestTargetCacheTests {
    static func parts(_ target: RequestTarget) -> [String] {
        [target.scheme, target.host, "\(target.port)", target.hostField, target.path]
    }

    @Test func answersWhatTakingTheURLApartAnswersForEveryURLInTurn() throws {
        let cache = RequestTargetCache()
        let urls = [
            "http://Example.COM:8080/a?b=c", "http://Example.COM:8080/a?b=c", "https://[::1]/x", "http://h/%7Ep",
            "https://h:443/", "http://Example.COM:8080/a?b=c",
        ].map { URL(string: $0)! }
        for url in urls {
            #expect(Self.parts(try cache.target(for: url)) == Self.parts(try RequestTarget(url: url)), "\(url)")
        }
    }

    @Test func aURLThatCannotBeSentThrowsAndLeavesTheLastOneCached() throws {
        let cache = RequestTargetCache()
        let good = URL(string: "http://a.example/one")!
        _ = try cache.target(for: good)
        #expect(throws: ClientError.self) { try cache.target(for: URL(string: "ftp://a.example/")!) }
        #expect(throws: ClientError.self) { try cache.target(for: URL(string: "ftp://a.example/")!) }
        #expect(try cache.target(for: good).path == "/one")
    }
}
