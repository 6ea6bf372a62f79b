import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// RFC 9111 freshness through the pipeline, with an injected clock.
@Suite struct CacheFreshnessTests {
    let url = "http://a.example/doc"

    /// Sends `url` twice with `seconds` between, and returns the second outcome and how many requests reached the
    /// origin.
    func outcome(after seconds: TimeInterval, status: Int = 200, _ fields: @escaping @Sendable (TestNow) -> [(
        HTTPField.Name, String
    )]) async throws -> (CacheOutcome?, Int) {
        let now = TestNow()
        let origin = cacheOrigin(status: status) { _ in fields(now) }
        let client = now.client(origin)
        _ = try await client.send(Request(url))
        now.advance(by: seconds)
        let second = try await client.send(Request(url))
        return (second.info.cacheOutcome, origin.requests.count)
    }

    @Test func maxAgeKeepsAnEntryFreshUntilItEnds() async throws {
        #expect(try await outcome(after: 59) { _ in [(.cacheControl, "max-age=60")] } == (.hit, 1))
        #expect(try await outcome(after: 61) { _ in [(.cacheControl, "max-age=60")] } == (.miss, 2))
    }

    @Test(arguments: ["max-age=0", "max-age=-5", "max-age=\"abc\"", "max-age='60'"])
    func zeroNegativeOrInvalidMaxAgeIsStaleAtOnce(_ value: String) async throws {
        #expect(try await outcome(after: 0) { now in [(.cacheControl, value), (.expires, now.httpDate(600))] }.1 == 2)
    }

    @Test func maxAgeInAQuotedStringIsNotADirective() async throws {
        let (result, requests) = try await outcome(after: 10) { _ in
            [(.cacheControl, "foo=\"max-age=600, x\", max-age=1")]
        }
        #expect(result == .miss && requests == 2)
    }

    @Test func expiresCountsFromTheDateField() async throws {
        #expect(try await outcome(after: 50) { now in
            [(.date, now.httpDate()), (.expires, now.httpDate(100))]
        } == (.hit, 1))
        // The server's clock is 1000 s behind: 100 s of freshness by its Date, whatever our clock says.
        #expect(try await outcome(after: 150) { now in
            [(.date, now.httpDate(-1_000)), (.expires, now.httpDate(-900))]
        }.1 == 2)
    }

    @Test(arguments: [
        "0", "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 50 02:01:18 GMT", "Thu 18 Aug 2050 02:01:18 GMT",
    ])
    func anInvalidExpiresIsInThePast(_ value: String) async throws {
        #expect(try await outcome(after: 1) { now in [(.date, now.httpDate()), (.expires, value)] }.1 == 2)
    }

    @Test func ageAndApparentAgeShortenFreshness() async throws {
        #expect(try await outcome(after: 0) { _ in [(.cacheControl, "max-age=3600"), (.age, "7200")] }.1 == 2)
        #expect(try await outcome(after: 0) { now in
            [(.cacheControl, "max-age=3600"), (.date, now.httpDate(-7_200))]
        }.1 == 2)
        // Only the first Age value counts; a non-numeric one is ignored.
        #expect(try await outcome(after: 0) { _ in [(.cacheControl, "max-age=3600"), (.age, "0, 7200")] } == (.hit, 1))
        #expect(try await outcome(after: 0) { _ in [(.cacheControl, "max-age=3600"), (.age, "old")] } == (.hit, 1))
    }

    @Test func heuristicFreshnessIsATenthOfTheTimeSinceLastModified() async throws {
        let fields: @Sendable (TestNow) -> [(HTTPField.Name, String)] = { now in
            [(.date, now.httpDate()), (.lastModified, now.httpDate(-1_000))]
        }
        #expect(try await outcome(after: 99, fields) == (.hit, 1))
        #expect(try await outcome(after: 101, fields).1 == 2)
        // Only for heuristically cacheable statuses: a 201 is not stored, a 404 is.
        #expect(try await outcome(after: 1, status: 201, fields).1 == 2)
        #expect(try await outcome(after: 1, status: 404, fields) == (.hit, 1))
    }

    @Test func storableStatuses() async throws {
        #expect(try await outcome(after: 1, status: 500) { _ in [(.cacheControl, "max-age=60")] } == (.hit, 1))
        #expect(try await outcome(after: 1, status: 299) { _ in [(.cacheControl, "max-age=60")] } == (.hit, 1))
        #expect(try await outcome(after: 1, status: 206) { _ in [(.cacheControl, "max-age=60")] }.1 == 2)
        let unknown = try await outcome(after: 1, status: 599) { _ in [(.cacheControl, "max-age=60, must-understand")] }
        #expect(unknown.1 == 2)
        #expect(try await outcome(after: 1) { _ in [(.cacheControl, "max-age=60, must-understand, no-store")] } == (
            .hit, 1
        ))
    }

    @Test func noCacheIsStoredButAlwaysRevalidated() async throws {
        let (result, requests) = try await outcome(after: 1) { _ in
            [(.cacheControl, "no-cache, max-age=600"), (.eTag, "\"a\"")]
        }
        #expect(result == .revalidated && requests == 2)
        let pragma = try await outcome(after: 1) { _ in [(HTTPField.Name("Pragma")!, "no-cache"), (.eTag, "\"a\"")] }
        #expect(pragma == (.revalidated, 2))
    }

    @Test func requestNoCacheAndMaxAgeZeroRevalidateAFreshEntry() async throws {
        for (name, value) in [(HTTPField.Name.cacheControl, "no-cache"), (.cacheControl, "max-age=0"),
                              (HTTPField.Name("Pragma")!, "no-cache")] {
            let now = TestNow()
            let origin = cacheOrigin { _ in [(.cacheControl, "max-age=600"), (.eTag, "\"a\"")] }
            let client = now.client(origin)
            _ = try await client.send(Request(url))
            var request = Request(url)
            request.headerFields[name] = value
            let second = try await client.send(request)
            #expect(second.info.cacheOutcome == .revalidated)
            #expect(origin.requests[1].headerFields[.ifNoneMatch] == "\"a\"")
        }
    }

    @Test func revalidationSendsOnlyTheValidatorsTheEntryHas() async throws {
        let now = TestNow()
        let origin = cacheOrigin { _ in
            [(.cacheControl, "max-age=0"), (.lastModified, "Wed, 01 Jan 2020 00:00:00 GMT")]
        }
        let client = now.client(origin)
        _ = try await client.send(Request(url))
        let second = try await client.send(Request(url))
        #expect(origin.requests[1].headerFields[.ifModifiedSince] == "Wed, 01 Jan 2020 00:00:00 GMT")
        #expect(origin.requests[1].headerFields[.ifNoneMatch] == nil)
        #expect(second.info.cacheOutcome == .revalidated)

        let bare = TestNow().client(cacheOrigin { _ in [(.cacheControl, "max-age=0")] })
        _ = try await bare.send(Request(url))
        let unconditional = try await bare.send(Request(url))
        #expect(unconditional.info.cacheOutcome == .miss)
    }

    @Test func aServedEntryCarriesItsAgeAndLength() async throws {
        let now = TestNow()
        let date = now.httpDate()
        let origin = cacheOrigin { _ in [(.cacheControl, "max-age=600"), (.age, "30"), (.date, date)] }
        let client = now.client(origin)
        _ = try await client.send(Request(url))
        now.advance(by: 5)
        let hit = try await client.send(Request(url))
        #expect(hit.headerFields[.age] == "35")
        #expect(hit.headerFields[.contentLength] == "6")
        #expect(hit.headerFields[.date] == date)  // never updated
    }

    @Test func a304RefreshesTheHeadAndFreshnessButNotTheBody() async throws {
        let now = TestNow()
        let version = Version()
        let origin = ScriptedTransport { request, _ in
            let v = version.value.load(ordering: .relaxed)
            var fields = fields([(.cacheControl, "max-age=10"), (.eTag, "\"a\""), (HTTPField.Name("Test")!, "\(v)")])
            if request.headerFields[.ifNoneMatch] == "\"a\"" {
                fields[.contentLength] = "99"
                return Response(status: .notModified, headerFields: fields)
            }
            return .text("original", headerFields: fields)
        }
        let cache = MemoryCacheStore()
        let client = now.client(origin, cache: cache)
        _ = try await client.send(Request(url))
        version.value.store(2, ordering: .relaxed)
        now.advance(by: 11)
        let revalidated = try await client.send(Request(url))
        #expect(revalidated.info.cacheOutcome == .revalidated)
        #expect(revalidated.text() == "original")
        #expect(revalidated.headerFields[HTTPField.Name("Test")!] == "2")
        #expect(revalidated.headerFields[.contentLength] == "8")
        now.advance(by: 9)
        let hit = try await client.send(Request(url))
        #expect(hit.info.cacheOutcome == .hit)  // fresh for 10 s from the 304
        #expect(hit.headerFields[HTTPField.Name("Test")!] == "2")
        #expect(origin.requests.count == 2)
    }

    @Test func hopByHopFieldsAndTheOnesConnectionNamesAreNotStored() async throws {
        let now = TestNow()
        let origin = cacheOrigin { _ in
            [
                (.cacheControl, "max-age=60"), (.connection, "a"), (HTTPField.Name("a")!, "1"),
                (HTTPField.Name("c")!, "3"), (HTTPField.Name("Keep-Alive")!, "timeout=5"),
            ]
        }
        let client = now.client(origin)
        _ = try await client.send(Request(url))
        let hit = try await client.send(Request(url))
        #expect(hit.info.cacheOutcome == .hit)
        #expect(hit.headerFields[HTTPField.Name("a")!] == nil && hit.headerFields[HTTPField.Name("Keep-Alive")!] == nil)
        #expect(hit.headerFields[HTTPField.Name("c")!] == "3")
    }
}
