import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// The cache seam as the pipeline uses it: bodies stream into a writer that is committed or aborted, a 304
/// updates the head only, and the request chooses the storage policy.
extension CacheHookTests {
    static let url = "http://a.example/doc"
    static let cacheable = fields([(.cacheControl, "max-age=60")])

    /// A 200 whose body comes in `chunks`, with or without an announced length.
    static func chunked(_ chunks: [[UInt8]], announced: Bool = true, extra: HTTPFields = cacheable) -> Response {
        let length = announced ? Int64(chunks.reduce(0) { $0 + $1.count }) : nil
        return Response(status: .ok, headerFields: extra,
                        body: ResponseBody(expectedLength: length, source: BufferedBodySource(chunks)))
    }

    @Test func discardedBodyIsAbortedAndNotStored() async throws {
        let cache = MemoryCacheStore()
        let client = Client(transport: ScriptedTransport { _, _ in Self.chunked([[1, 2], [3, 4]]) }, cache: cache)
        let response = try await client.stream(Request(Self.url))
        var chunks = response.body.makeAsyncIterator()
        #expect(try await chunks.next() == [1, 2])
        await response.body.discard()
        #expect(cache.entries.isEmpty)
        #expect(cache.calls.contains(.abort(key: Self.url)))
        #expect(!cache.calls.contains(.commit(key: Self.url)))
    }

    @Test func cancelledBodyIsAbortedAndNotStored() async throws {
        let cache = MemoryCacheStore()
        let client = Client(transport: ScriptedTransport { _, _ in
            Response(status: .ok, headerFields: Self.cacheable,
                     body: ResponseBody(expectedLength: 100, source: DataPathEdgeTests.HangingBodySource()))
        }, cache: cache)
        let response = try await client.stream(Request(Self.url))
        var chunks = response.body.makeAsyncIterator()
        #expect(try await chunks.next() == [1, 2, 3])
        let body = response.body
        let reader = Task { for try await _ in body {} }
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(cache.calls.last == .abort(key: Self.url))
        #expect(cache.entries.isEmpty)
    }

    @Test func bodyFailingMidwayIsAbortedAndKeepsThePreviousEntry() async throws {
        let cache = MemoryCacheStore()
        let failing = Atomic<Bool>(false)
        let transport = ScriptedTransport { _, _ in
            guard failing.load(ordering: .relaxed) else { return .text("complete", headerFields: Self.cacheable) }
            return Response(status: .ok, headerFields: Self.cacheable,
                            body: ResponseBody(expectedLength: 100, source: FailingAfterBodySource(first: [1, 2, 3])))
        }
        let client = Client(transport: transport, cache: cache)
        _ = try await client.send(Request(Self.url))
        failing.store(true, ordering: .relaxed)
        var again = Request(Self.url)
        again.options.cachePolicy = [.doNotReadFromCache]
        await #expect(throws: ClientError.self) { try await client.send(again) }
        #expect(cache.calls.suffix(3) == [.makeWriter(key: Self.url, expectedLength: 100),
                                          .write(key: Self.url, byteCount: 3), .abort(key: Self.url)])
        #expect(cache.entries[Self.url]?.body == Array("complete".utf8))
    }

    @Test func notModifiedUpdatesTheHeadOnly() async throws {
        let cache = MemoryCacheStore()
        let transport = Self.origin(cacheControl: "max-age=0", version: Version())
        let client = Client(transport: transport, cache: cache)
        _ = try await client.send(Request(Self.url))
        let stored = try #require(cache.entries[Self.url])
        let before = cache.calls.count
        let revalidated = try await client.send(Request(Self.url))
        #expect(revalidated.info.isFromCache)
        #expect(revalidated.text() == "body \"v1\"")
        // The body is opened before the head is updated, so it is the one committed with the looked-up head.
        #expect(Array(cache.calls[before...]) == [.entry(key: Self.url), .openBody(key: Self.url),
                                                  .updateHead(key: Self.url)])
        let refreshed = try #require(cache.entries[Self.url])
        #expect(refreshed.body == stored.body)
        #expect(refreshed.head.storedAt >= stored.head.storedAt)
    }

    @Test func staleEntryTheServerReplacesNeverOpensItsBody() async throws {
        let cache = MemoryCacheStore()
        let version = Version()
        let client = Client(transport: Self.origin(cacheControl: "max-age=0", version: version), cache: cache)
        _ = try await client.send(Request(Self.url))
        version.value.store(2, ordering: .relaxed)
        let changed = try await client.send(Request(Self.url))
        #expect(changed.text() == "body \"v2\"")
        #expect(cache.bodyOpenCount == 0)
        #expect(cache.entries[Self.url]?.body == Array("body \"v2\"".utf8))
    }

    @Test func freshHitOpensTheBodyOnce() async throws {
        let cache = MemoryCacheStore()
        let client = Client(transport: ScriptedTransport { _, _ in Self.chunked([[7, 8, 9]]) }, cache: cache)
        _ = try await client.send(Request(Self.url))
        #expect(cache.bodyOpenCount == 0)
        #expect(try await client.send(Request(Self.url)).body == [7, 8, 9])
        #expect(cache.bodyOpenCount == 1)
    }

    @Test(arguments: ["max-age=60", "max-age=0"])
    func entryWhoseBodyVanishedIsFetchedAgain(_ cacheControl: String) async throws {
        let cache = VanishedBodyCache()
        let transport = Self.origin(cacheControl: cacheControl, version: Version())
        let client = Client(transport: transport, cache: cache)
        _ = try await client.send(Request(Self.url))
        let again = try await client.send(Request(Self.url))
        #expect(!again.info.isFromCache)
        #expect(again.text() == "body \"v1\"")
        #expect(transport.requests.last?.headerFields[.ifNoneMatch] == nil)
        #expect(transport.requests.count == (cacheControl == "max-age=60" ? 2 : 3))
    }

    /// 24 MiB, three times the old 8 MiB pipeline cap, produced lazily: each chunk reaches the store before the
    /// next is read from the transport, so the pipeline holds one chunk at a time.
    @Test func largeBodyStreamsIntoTheStore() async throws {
        let chunkSize = 64 << 10
        let count = 384
        let cache = MemoryCacheStore(maxEntrySize: 32 << 20)
        let source = GeneratedBodySource(chunkSize: chunkSize, count: count)
        let client = Client(transport: ScriptedTransport { _, _ in
            Response(status: .ok, headerFields: Self.cacheable,
                     body: ResponseBody(expectedLength: nil, source: source))
        }, cache: cache)
        let response = try await client.stream(Request(Self.url))
        var received = 0
        for try await chunk in response.body {
            received += chunk.count
            let writes = cache.calls.filter { if case .write = $0 { true } else { false } }
            #expect(writes.count == source.produced, "the store lags behind or runs ahead of the body")
        }
        #expect(received == chunkSize * count)
        #expect(cache.calls.last == .commit(key: Self.url))
        #expect(cache.entries[Self.url]?.body.count == chunkSize * count)
    }

    @Test(arguments: [true, false])
    func bodyOverTheStoresCapPassesThroughAndIsNotStored(_ announced: Bool) async throws {
        let cache = MemoryCacheStore(maxEntrySize: 1000)
        let chunks = [[UInt8](repeating: 1, count: 600), [UInt8](repeating: 2, count: 600)]
        let client = Client(transport: ScriptedTransport { _, _ in Self.chunked(chunks, announced: announced) },
                            cache: cache)
        let response = try await client.send(Request(Self.url))
        #expect(response.body == chunks[0] + chunks[1])
        #expect(cache.entries.isEmpty)
        if announced {
            #expect(cache.calls == [.entry(key: Self.url), .makeWriter(key: Self.url, expectedLength: 1200)])
        } else {
            #expect(cache.calls.suffix(3) == [.write(key: Self.url, byteCount: 600), .decline(key: Self.url),
                                              .abort(key: Self.url)])
        }
    }

    @Test(arguments: [nil, CacheStoragePolicy.sessionDuration, .permanent])
    func storagePolicyComesFromTheRequest(_ policy: CacheStoragePolicy?) async throws {
        let cache = MemoryCacheStore()
        var request = Request(Self.url)
        if let policy { request.options.cacheStoragePolicy = policy }
        _ = try await Client(transport: ScriptedTransport { _, _ in Self.chunked([[1]]) }, cache: cache).send(request)
        #expect(cache.entries[Self.url]?.head.storagePolicy == policy ?? .sessionDuration)
    }

    @Test func varyRecordsTheRequestFieldsItNames() async throws {
        let cache = MemoryCacheStore()
        let response = Self.chunked([[1]], extra: fields([
            (.cacheControl, "max-age=60"), (.vary, "Accept-Language, X-Absent"), (.vary, "user-agent"),
        ]))
        var request = Request(Self.url)
        request.headerFields[.acceptLanguage] = "de"
        request.headerFields[.userAgent] = "tester"
        request.headerFields[.accept] = "text/plain"
        _ = try await Client(transport: ScriptedTransport { _, _ in response }, cache: cache).send(request)
        let head = try #require(cache.entries[Self.url]?.head)
        #expect(head.varyingRequestFields == fields([(.acceptLanguage, "de"), (.userAgent, "tester")]))
    }

    @Test func failingWriterFailsTheBodyWithTheCacheStage() async throws {
        let cache = MemoryCacheStore()
        let client = Client(transport: ScriptedTransport { _, _ in Self.chunked([[1], [2]]) }, cache: cache)
        let response = try await client.stream(Request(Self.url))
        cache.failEveryCall(with: ClientError(.storageFailed, message: "disk full"))
        let error = await #expect(throws: ClientError.self) { _ = try await response.body.collect(upTo: 10) }
        #expect(error?.stage == .cache)
        #expect(cache.calls.last == .abort(key: Self.url))
    }
}

/// Produces `count` chunks of `chunkSize` bytes on demand, counting how many it produced.
final class GeneratedBodySource: ResponseBodySource {
    let chunkSize: Int
    let count: Int
    private let step = Atomic<Int>(0)

    init(chunkSize: Int, count: Int) {
        self.chunkSize = chunkSize
        self.count = count
    }

    var produced: Int { step.load(ordering: .relaxed) }

    func next() async throws -> [UInt8]? {
        let index = step.load(ordering: .relaxed)
        guard index < count else { return nil }
        step.store(index + 1, ordering: .relaxed)
        return [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: chunkSize)
    }

    func discard() async { step.store(count, ordering: .relaxed) }
}

/// Wraps a ``MemoryCacheStore`` whose entries' bodies have gone (evicted) by the time they are opened.
struct VanishedBodyCache: CacheStore {
    struct Gone: CachedBody {
        func open() async throws -> ResponseBody? { nil }
    }

    let base = MemoryCacheStore()

    func entry(forKey key: String) async throws -> CacheEntry? {
        try await base.entry(forKey: key).map { CacheEntry(head: $0.head, body: Gone()) }
    }
    func makeWriter(forKey key: String, head: CachedResponseHead, expectedLength: Int64?) async throws
        -> (any CacheEntryWriter)?
    {
        try await base.makeWriter(forKey: key, head: head, expectedLength: expectedLength)
    }
    func updateHead(_ head: CachedResponseHead, forKey key: String, replacing previous: CachedResponseHead)
        async throws
    {
        try await base.updateHead(head, forKey: key, replacing: previous)
    }
    func removeEntry(forKey key: String) async throws { try await base.removeEntry(forKey: key) }
    func removeEntries(with policy: CacheStoragePolicy) async throws { try await base.removeEntries(with: policy) }
    func removeAll() async throws { try await base.removeAll() }
}
