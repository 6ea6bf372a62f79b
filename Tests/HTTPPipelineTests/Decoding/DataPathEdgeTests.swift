import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// Cancellation mid-download and the cache's view of compressed responses.
@Suite struct DataPathEdgeTests {
    /// Yields one chunk, then waits until cancelled.
    final class HangingBodySource: ResponseBodySource {
        private let step = Atomic<Int>(0)
        func next() async throws -> [UInt8]? {
            if step.add(1, ordering: .relaxed).newValue == 1 { return [1, 2, 3] }
            try await Task.sleep(for: .seconds(60))
            return nil
        }
        func discard() async {}
    }

    @Test(arguments: [false, true])
    func cancellingMidDownloadRemovesTheTemporaryFileUnlessResumable(resume: Bool) async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let transport = ScriptedTransport { _, _ in
            Response(status: .ok, body: ResponseBody(expectedLength: 100, source: HangingBodySource()))
        }
        var request = Request(url: URL(string: "http://a.example/")!)
        request.options.download = DownloadOptions(
            destinationPath: directory + "/out", temporaryPath: directory + "/part", allowsResume: resume)
        let client = Client(transport: transport)
        let task = Task { try await client.send(request) }
        for _ in 0..<2_000 where readFile(directory + "/part") != [1, 2, 3] {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(readFile(directory + "/part") == [1, 2, 3])
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(listing(directory) == (resume ? ["part"] : []))
    }

    @Test func aCachedCompressedResponseIsStoredDecodedAndNotDecodedAgain() async throws {
        let plain = Array("cached and compressed".utf8)
        let transport = ScriptedTransport { _, _ in
            compressedResponse(plain, extra: fields([(.cacheControl, "max-age=600")]))
        }
        let client = Client(transport: transport, cache: MemoryCacheStore(), codecs: [XorCodec()])
        let first = try await client.send(Request(url: URL(string: "http://a.example/c")!))
        let second = try await client.send(Request(url: URL(string: "http://a.example/c")!))
        #expect(transport.requests.count == 1)
        #expect(second.info.isFromCache)
        #expect(first.body == plain)
        #expect(second.body == plain)
        // The entry holds the decoded body under a head without Content-Encoding: nothing is inflated on the way out.
        #expect(second.rawBody == plain)
        #expect(second.headerFields[.contentEncoding] == nil && !second.isResponseCompressed)
    }
}
