import DiskCache
import Foundation
import GzipCodec
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import TestSupport
import Testing

/// A gzip response from a loopback server under a real client: the entry's body file holds the decoded bytes, and
/// the cache serves them (fresh, then revalidated by a 304 that names `Content-Encoding` again) without
/// `Content-Encoding` and without inflating them again.
struct DiskCacheDecodedBodyTests {
    static let plain = Array(String(repeating: "a gzip body kept decoded on disk\n", count: 3000).utf8)

    static func server(gzipped: [UInt8]) throws -> LoopbackServer {
        try LoopbackServer { request in
            let cacheControl = request.path == "/stale" ? "max-age=0" : "max-age=3600"
            let head = [("Cache-Control", cacheControl), ("ETag", "\"g1\""), ("Content-Encoding", "gzip")]
            if request.header("If-None-Match") == "\"g1\"" { return .status(304, headers: head, body: []) }
            return .status(200, headers: head, body: gzipped)
        }
    }

    @Test func aGzipBodyIsStoredDecodedAndServedDecodedFreshAndAfterA304() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let codec = ZlibContentCodec()
        let gzipped = try codec.compress(Self.plain)
        #expect(gzipped.count < Self.plain.count / 10)
        let server = try Self.server(gzipped: gzipped)
        defer { server.shutdown() }
        let store = fixture.store()
        let client = Client(transport: .posix(), cache: store, codecs: [codec])

        for path in ["/fresh", "/stale"] {
            let first = try await client.send(Request(url: server.url(path)))
            #expect(first.body == Self.plain && first.isResponseCompressed && !first.info.isFromCache)
            let key = server.url(path).absoluteString
            #expect(try await DiskCacheFixture.body(store, key) == Self.plain, "\(path): the body file is not decoded")
            let entry = try #require(try await store.entry(forKey: key))
            #expect(entry.head.headerFields[.contentEncoding] == nil)
            #expect(entry.head.headerFields[.eTag] == "\"g1\"")

            let requests = server.requests.count
            let second = try await client.send(Request(url: server.url(path)))
            #expect(second.info.isFromCache && second.body == Self.plain)
            #expect(second.headerFields[.contentEncoding] == nil && !second.isResponseCompressed)
            let revalidates = path == "/stale"
            #expect(server.requests.count == requests + (revalidates ? 1 : 0))
            #expect(second.info.cacheOutcome == (revalidates ? .revalidated : .hit))
            let refreshed = try #require(try await store.entry(forKey: key))
            #expect(refreshed.head.headerFields[.contentEncoding] == nil, "\(path): the 304 put Content-Encoding back")
        }
        let files = fixture.bodies.map { fixture.root + "/entries/" + $0 }
        #expect(files.count == 2)
        for file in files { #expect(FileManager.default.contents(atPath: file).map(Array.init) == Self.plain) }
        try await client.shutdown()
    }
}
