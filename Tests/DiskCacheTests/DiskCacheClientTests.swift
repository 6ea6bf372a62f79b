import DiskCache
import Foundation
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import TestSupport
import Testing

/// The store under a real client and a loopback server: a body given up or cut short is never stored, a whole
/// one is, and a fresh entry answers without the network.
struct DiskCacheClientTests {
    static let body = DataPath.bytes(300_000)

    /// Serves the body, fresh for an hour, to the first request; the second gets half of it and a reset.
    static func server() throws -> LoopbackServer {
        let head: [(String, String)] = [("Cache-Control", "max-age=3600"), ("ETag", "\"a\"")]
        return try LoopbackServer { request in
            switch request.path {
            case "/whole": .status(200, headers: head, body: body)
            case "/cut":
                .status(200, headers: head + [("Content-Length", String(body.count))], body: Array(body.prefix(1000)))
                    .followed(by: .reset)
            default: .status(200, headers: head, body: body)
            }
        }
    }

    @Test func aBodyGivenUpOrCutShortIsNotStoredAndAWholeOneAnswersWithoutTheNetwork() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let server = try Self.server()
        defer { server.shutdown() }
        let client = Client(transport: .posix(), cache: fixture.store())

        let given = try await client.stream(Request(url: server.url("/given-up")))
        var iterator = given.body.makeAsyncIterator()
        _ = try await iterator.next()
        await given.body.discard()
        await #expect(throws: (any Error).self) {
            try await client.stream(Request(url: server.url("/cut"))).body.collect(upTo: .max)
        }
        #expect(fixture.heads.isEmpty, "a body given up or cut short was stored")
        #expect(fixture.temporaries.isEmpty, "an abandoned write left its temporary file")

        let first = try await client.send(Request(url: server.url("/whole")))
        #expect(LargeBytes.equal(first.body, Self.body) && !first.info.isFromCache)
        let requests = server.requests.count
        let second = try await client.send(Request(url: server.url("/whole")))
        #expect(LargeBytes.equal(second.body, Self.body) && second.info.isFromCache, "a fresh entry did not answer")
        #expect(server.requests.count == requests, "a fresh entry went to the network")
        try await client.shutdown()
    }
}
