import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// ASIHTTPRequest's cache policies, the client default, `secondsToCache` and `shouldRespectCacheControlHeaders`.
@Suite struct CachePolicyTests {
    let url = "http://a.example/doc"

    func request(_ policy: CachePolicy) -> Request {
        var request = Request(url)
        request.options.cachePolicy = policy
        return request
    }

    /// A client holding a stale entry (max-age=10, 20 s ago) with an ETag, and its origin.
    func staleSetup(
        configure: (inout Client.CacheConfiguration) -> Void = { _ in }
    ) async throws -> (Client, ScriptedTransport) {
        let now = TestNow()
        let origin = cacheOrigin { _ in [(.cacheControl, "max-age=10"), (.eTag, "\"a\"")] }
        let client = now.client(origin, configure: configure)
        _ = try await client.send(Request(url))
        now.advance(by: 20)
        return (client, origin)
    }

    @Test func asiBitValues() {
        #expect(CachePolicy.useDefault.rawValue == 0)
        #expect(CachePolicy.doNotReadFromCache.rawValue == 1 && CachePolicy.doNotWriteToCache.rawValue == 2)
        #expect(CachePolicy.askServerIfModifiedWhenStale.rawValue == 4 && CachePolicy.askServerIfModified.rawValue == 8)
        #expect(CachePolicy.onlyLoadIfNotCached.rawValue == 16 && CachePolicy.dontLoad.rawValue == 32)
        #expect(CachePolicy.fallbackToCacheIfLoadFails.rawValue == 64)
        #expect(CachePolicy.useDefault.resolved(default: []) == .askServerIfModifiedWhenStale)
        #expect(CachePolicy.doNotWriteToCache.resolved(default: .onlyLoadIfNotCached) == [
            .doNotWriteToCache, .onlyLoadIfNotCached,
        ])
        #expect(CachePolicy.askServerIfModified.resolved(default: .dontLoad) == .askServerIfModified)
    }

    @Test func askServerIfModifiedRevalidatesEvenAFreshEntry() async throws {
        let now = TestNow()
        let origin = cacheOrigin { _ in [(.cacheControl, "max-age=600"), (.eTag, "\"a\"")] }
        let client = now.client(origin)
        _ = try await client.send(Request(url))
        let second = try await client.send(request(.askServerIfModified))
        #expect(second.info.cacheOutcome == .revalidated && second.didUseCachedResponse)
        #expect(origin.requests.count == 2)
    }

    @Test func onlyLoadIfNotCachedUsesAStaleEntry() async throws {
        let (client, origin) = try await staleSetup()
        let response = try await client.send(request(.onlyLoadIfNotCached))
        #expect(response.info.cacheOutcome == .hit && response.text() == "stored")
        #expect(origin.requests.count == 1)
    }

    @Test func dontLoadAnswersFromTheCacheOrWith504WithoutTheNetwork() async throws {
        let (client, origin) = try await staleSetup()
        #expect(try await client.send(request(.dontLoad)).info.cacheOutcome == .hit)
        var other = request(.dontLoad)
        other.url = URL(string: "http://a.example/never")!
        let missing = try await client.send(other)
        #expect(missing.status.code == 504 && missing.body.isEmpty)
        #expect(missing.info.cacheOutcome == .notCached && !missing.didUseCachedResponse)
        #expect(origin.requests.count == 1)
    }

    @Test func fallbackAnswersWithTheStoredEntryWhenTheLoadFails() async throws {
        let now = TestNow()
        let failing = Version()
        let origin = ScriptedTransport { _, _ in
            if failing.value.load(ordering: .relaxed) == 2 { throw ClientError(.connectFailed, message: "refused") }
            return .text("stored", headerFields: fields([(.cacheControl, "max-age=10")]))
        }
        let client = now.client(origin)
        _ = try await client.send(Request(url))
        now.advance(by: 20)
        failing.value.store(2, ordering: .relaxed)
        let fallback = try await client.send(request(.fallbackToCacheIfLoadFails))
        #expect(fallback.info.cacheOutcome == .fallback && fallback.text() == "stored")
        await #expect(throws: ClientError.self) { try await client.send(Request(url)) }
        await #expect(throws: ClientError.self) {
            try await client.send(request([.fallbackToCacheIfLoadFails, .doNotReadFromCache]))
        }
    }

    @Test func fallbackNeverServesAStaleMustRevalidateEntry() async throws {
        let now = TestNow()
        let failing = Version()
        let origin = ScriptedTransport { _, _ in
            if failing.value.load(ordering: .relaxed) == 2 { throw ClientError(.connectFailed, message: "refused") }
            return .text("stored", headerFields: fields([(.cacheControl, "max-age=10, must-revalidate")]))
        }
        let client = now.client(origin)
        _ = try await client.send(Request(url))
        now.advance(by: 20)
        failing.value.store(2, ordering: .relaxed)
        await #expect(throws: ClientError.self) { try await client.send(request(.fallbackToCacheIfLoadFails)) }
    }

    @Test func theClientDefaultAppliesToRequestsThatAskForIt() async throws {
        let (client, origin) = try await staleSetup { $0.defaultPolicy = .onlyLoadIfNotCached }
        #expect(try await client.send(Request(url)).info.cacheOutcome == .hit)
        #expect(try await client.send(request(.askServerIfModifiedWhenStale)).info.cacheOutcome == .revalidated)
        #expect(origin.requests.count == 2)
        var configuration = Client.CacheConfiguration()
        configuration.defaultPolicy = []
        #expect(configuration.defaultPolicy == .askServerIfModifiedWhenStale)
    }

    @Test func doNotWriteStillReadsWithTheDefaultMode() async throws {
        let now = TestNow()
        let cache = MemoryCacheStore()
        let origin = cacheOrigin { _ in [(.cacheControl, "max-age=600")] }
        let client = now.client(origin, cache: cache)
        _ = try await client.send(request(.doNotWriteToCache))
        #expect(cache.writeCount == 0)
        _ = try await client.send(Request(url))
        #expect(try await client.send(request(.doNotWriteToCache)).info.cacheOutcome == .hit)
    }

    @Test func secondsToCacheOverridesTheServersFreshness() async throws {
        let now = TestNow()
        let origin = cacheOrigin { _ in [(.cacheControl, "max-age=0")] }
        let client = now.client(origin)
        var first = Request(url)
        first.options.secondsToCache = 100
        _ = try await client.send(first)
        now.advance(by: 99)
        #expect(try await client.send(Request(url)).info.cacheOutcome == .hit)
        now.advance(by: 2)
        #expect(try await client.send(Request(url)).info.cacheOutcome == .miss)
    }

    @Test func ignoringCacheControlStoresEverythingAndKeepsItFresh() async throws {
        let now = TestNow()
        let origin = cacheOrigin { _ in [(.cacheControl, "no-store, max-age=0")] }
        let client = now.client(origin) { $0.respectsCacheControlHeaders = false }
        _ = try await client.send(Request(url))
        now.advance(by: 86_400)
        #expect(try await client.send(Request(url)).info.cacheOutcome == .hit)
        #expect(origin.requests.count == 1)
        // Only the statuses ASIHTTPRequest stored: an error page is never kept for ever.
        let errors = now.client(cacheOrigin(status: 500) { _ in [(.cacheControl, "max-age=600")] }) {
            $0.respectsCacheControlHeaders = false
        }
        _ = try await errors.send(Request(url))
        #expect(try await errors.send(Request(url)).info.cacheOutcome == .miss)
    }

    @Test func unsafeMethodsInvalidateTheURLAndSameOriginLocations() async throws {
        let now = TestNow()
        let cache = MemoryCacheStore()
        let origin = ScriptedTransport { request, _ in
            if request.method == .post {
                let status = request.url.path() == "/fail" ? 500 : 201
                return .text("made", status: status, headerFields: fields([
                    (.location, "/other"), (.contentLocation, "http://b.example/doc"),
                ]))
            }
            return .text("stored", headerFields: fields([(.cacheControl, "max-age=600")]))
        }
        let client = now.client(origin, cache: cache)
        for path in ["/doc", "/other", "/fail"] { _ = try await client.send(Request("http://a.example\(path)")) }
        _ = try await client.send(Request("http://a.example/fail", method: .post))
        #expect(cache.entries.count == 3)  // a failed POST invalidates nothing
        _ = try await client.send(Request("http://a.example/doc", method: .post))
        #expect(Set(cache.entries.keys) == ["http://a.example/fail"])
    }

    @Test func removingAndClearing() async throws {
        let now = TestNow()
        let cache = MemoryCacheStore()
        let client = now.client(cacheOrigin { _ in [(.cacheControl, "max-age=600")] }, cache: cache)
        var permanent = Request("http://a.example/keep")
        permanent.options.cacheStoragePolicy = .permanent
        for request in [Request(url), Request("http://a.example/two"), permanent] { _ = try await client.send(request) }
        try await client.removeCachedResponse(for: URL(string: "http://a.example/two/")!)
        #expect(cache.entries.count == 2)
        try await client.clearSession()
        #expect(Array(cache.entries.keys) == ["http://a.example/keep"])
        try await client.clearCachedResponses(with: .permanent)
        #expect(cache.entries.isEmpty)
    }

    @Test func aDownloadIsStoredAndServedFromTheCacheIntoItsFile() async throws {
        let now = TestNow()
        let origin = cacheOrigin(body: String(repeating: "x", count: 100_000)) { _ in [(.cacheControl, "max-age=600")] }
        let client = now.client(origin)
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "cache-download-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["one", "two"] {
            var request = Request(url)
            request.options.download = DownloadOptions(destinationPath: directory.appending(path: name).path)
            let response = try await client.send(request)
            #expect(response.body.isEmpty)
            #expect(response.info.cacheOutcome == (name == "one" ? .miss : .hit))
            #expect(FileManager.default.contents(atPath: directory.appending(path: name).path)?.count == 100_000)
        }
        #expect(origin.requests.count == 1)
    }
}

/// The cache's value types cross task boundaries (STYLE.md §6).
@Suite struct CacheSendableTests {
    @Test func valuesCanBeUsedFromDetachedTasks() async {
        let configuration = Client.CacheConfiguration(defaultPolicy: [.onlyLoadIfNotCached, .fallbackToCacheIfLoadFails])
        let outcome = CacheOutcome.revalidated
        let policy: CachePolicy = [.askServerIfModified]
        let result = await Task.detached {
            (configuration.defaultPolicy.rawValue, outcome.description, policy.resolved(default: []).rawValue)
        }.value
        #expect(result.0 == 80 && result.1 == "revalidated (304)" && result.2 == 8)
    }
}
