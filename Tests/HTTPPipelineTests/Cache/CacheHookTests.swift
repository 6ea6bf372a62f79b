import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@Suite struct CacheHookTests {
    /// Serves version `v` with an ETag, answering 304 to a matching If-None-Match.
    static func origin(cacheControl: String, version: Version) -> ScriptedTransport {
        ScriptedTransport { request, _ in
            let etag = "\"v\(version.value.load(ordering: .relaxed))\""
            if request.headerFields[.ifNoneMatch] == etag {
                return Response(status: .notModified, headerFields: fields([(.eTag, etag), (.cacheControl, cacheControl)]))
            }
            return .text("body \(etag)", headerFields: fields([(.eTag, etag), (.cacheControl, cacheControl)]))
        }
    }

    @Test func freshEntryIsServedWithoutTheNetwork() async throws {
        let version = Version()
        let transport = Self.origin(cacheControl: "max-age=60", version: version)
        let cache = MemoryCacheStore()
        let client = Client(transport: transport, cache: cache)
        let first = try await client.send(Request("http://a.example/doc"))
        #expect(!first.info.isFromCache)
        #expect(cache.writeCount == 1)
        let second = try await client.send(Request("http://a.example/doc"))
        #expect(second.info.isFromCache)
        #expect(second.text() == "body \"v1\"")
        #expect(transport.requests.count == 1)
    }

    @Test func staleEntryIsRevalidated() async throws {
        let version = Version()
        let transport = Self.origin(cacheControl: "max-age=0", version: version)
        let client = Client(transport: transport, cache: MemoryCacheStore())
        _ = try await client.send(Request("http://a.example/doc"))
        let revalidated = try await client.send(Request("http://a.example/doc"))
        #expect(transport.requests[1].headerFields[.ifNoneMatch] == "\"v1\"")
        #expect(revalidated.status == .ok)
        #expect(revalidated.info.isFromCache)
        #expect(revalidated.text() == "body \"v1\"")
        version.value.store(2, ordering: .relaxed)
        let changed = try await client.send(Request("http://a.example/doc"))
        #expect(!changed.info.isFromCache)
        #expect(changed.text() == "body \"v2\"")
    }

    @Test(arguments: ["no-store", "NO-STORE", "private, no-store", "max-age=60, no-store"])
    func forbiddenResponsesAreNotStored(_ cacheControl: String) async throws {
        let cache = MemoryCacheStore()
        _ = try await Client(transport: Self.origin(cacheControl: cacheControl, version: Version()), cache: cache)
            .send(Request("http://a.example/doc"))
        #expect(cache.writeCount == 0)
    }

    @Test func policiesTurnReadingAndWritingOff() async throws {
        let cache = MemoryCacheStore()
        let client = Client(transport: Self.origin(cacheControl: "max-age=60", version: Version()), cache: cache)
        var request = Request("http://a.example/doc")
        request.options.cachePolicy = [.doNotWriteToCache]
        _ = try await client.send(request)
        #expect(cache.writeCount == 0)
        _ = try await client.send(Request("http://a.example/doc"))
        request.options.cachePolicy = [.doNotReadFromCache]
        #expect(try await !client.send(request).info.isFromCache)
    }

    @Test func onlyGETUsesTheCache() async throws {
        let cache = MemoryCacheStore()
        _ = try await Client(transport: Self.origin(cacheControl: "max-age=60", version: Version()), cache: cache)
            .send(Request("http://a.example/doc", method: .post))
        #expect(cache.readCount == 0 && cache.writeCount == 0)
    }

    @Test func keysNeverHoldURLCredentials() async throws {
        let cache = MemoryCacheStore()
        _ = try await Client(transport: Self.origin(cacheControl: "max-age=60", version: Version()), cache: cache)
            .send(Request("http://alice:secret@a.example/doc"))
        #expect(Array(cache.entries.keys) == ["http://a.example/doc"])
    }

    @Test func storeFailureNamesTheCacheStage() async throws {
        let cache = MemoryCacheStore()
        cache.failEveryCall(with: ClientError(.storageFailed, message: "disk full"))
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: ScriptedTransport.ok, cache: cache).send(Request("http://a.example/"))
        }
        #expect(error?.stage == .cache)
    }
}

/// The origin's current version number.
final class Version: Sendable {
    let value = Atomic<Int>(1)
}

/// `Vary`: an entry answers only a request that sends what the stored one sent for each named field, and a
/// response that varies on `*` or on credentials is not stored.
@Suite struct CacheVaryTests {
    static func origin(vary: String) -> ScriptedTransport {
        ScriptedTransport { request, _ in
            var fields = HTTPFields()
            fields[.eTag] = "\"v1\""
            fields[.cacheControl] = "max-age=600"
            fields[.vary] = vary
            if request.headerFields[.ifNoneMatch] == "\"v1\"" {
                return Response(status: .notModified, headerFields: fields)
            }
            return .text("variant", headerFields: fields)
        }
    }

    @Test func aFreshEntryIsUsedOnlyByARequestItsVaryMatches() async throws {
        let transport = Self.origin(vary: "Accept-Language")
        let client = Client(transport: transport, cache: MemoryCacheStore())
        var request = Request("http://a.example/doc")
        request.headerFields[.acceptLanguage] = "en, de"
        _ = try await client.send(request)
        request.headerFields[.acceptLanguage] = "en,de"  // the same value, spaced differently
        #expect(try await client.send(request).info.cacheOutcome == .hit)
        request.headerFields[.acceptLanguage] = "fr"
        let other = try await client.send(request)
        #expect(transport.requests.count == 2)
        #expect(transport.requests[1].headerFields[.ifNoneMatch] == nil)  // another variant: not a revalidation
        #expect(other.info.cacheOutcome == .miss)
        request.headerFields[.acceptLanguage] = nil
        _ = try await client.send(request)
        #expect(transport.requests.count == 3)  // the stored request sent the field, this one does not
    }

    @Test(arguments: ["*", "Cookie", "Accept-Encoding, Authorization", "proxy-authorization"])
    func responsesVaryingOnStarOrCredentialsAreNotStored(_ vary: String) async throws {
        let cache = MemoryCacheStore()
        var request = Request("http://a.example/doc")
        request.headerFields[.cookie] = "session=secret"
        _ = try await Client(transport: Self.origin(vary: vary), cache: cache).send(request)
        #expect(cache.writeCount == 0)
    }
}
