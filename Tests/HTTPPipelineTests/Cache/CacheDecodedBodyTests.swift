import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

/// Entries keep decoded bodies: a compressed response is stored without its content coding, and what the cache
/// serves afterwards (fresh, revalidated by a 304) is the decoded body under a head without `Content-Encoding`.
@Suite struct CacheDecodedBodyTests {
    static let plain = Array(String(repeating: "stored decoded ", count: 200).utf8)
    static let url = "http://a.example/doc"

    /// Answers with `plain` encoded in `coding`, `Cache-Control: cacheControl` and an ETag; a matching
    /// `If-None-Match` gets a 304 that announces `Content-Encoding` and `Content-Length` again.
    static func origin(cacheControl: String = "max-age=60", coding: String = "gzip", body: [UInt8]? = nil)
        -> ScriptedTransport
    {
        ScriptedTransport { request, _ in
            let tagged = fields([(.eTag, "\"e1\""), (.cacheControl, cacheControl)])
            if request.headerFields[.ifNoneMatch] == "\"e1\"" {
                var notModified = tagged
                notModified[.contentEncoding] = coding
                notModified[.contentLength] = "17"
                return Response(status: .notModified, headerFields: notModified)
            }
            guard let body else { return compressedResponse(plain, coding: coding, pieces: 7, extra: tagged) }
            var sent = tagged
            sent[.contentEncoding] = coding
            return Response(status: .ok, headerFields: sent, body: ResponseBody(bytes: body))
        }
    }

    static func client(_ transport: ScriptedTransport, _ cache: MemoryCacheStore) -> Client {
        Client(transport: transport, cache: cache, codecs: [XorCodec()])
    }

    @Test(arguments: [true, false])
    func aCompressedBodyIsStoredDecodedAndServedWithoutContentEncoding(inflatesWhenComplete: Bool) async throws {
        let cache = MemoryCacheStore()
        let transport = Self.origin()
        let client = Self.client(transport, cache)
        var request = Request(Self.url)
        request.options.inflatesWhenComplete = inflatesWhenComplete
        let first = try await client.send(request)
        #expect(first.body == Self.plain && !first.info.isFromCache)
        let entry = try #require(cache.entries.values.first)
        #expect(entry.body == Self.plain, "the store holds the bytes as sent, not decoded")
        #expect(entry.head.headerFields[.contentEncoding] == nil)
        #expect(entry.head.headerFields[.contentLength] == nil)
        #expect(entry.head.headerFields[.eTag] == "\"e1\"")

        let second = try await client.send(request)
        #expect(second.info.isFromCache && transport.requests.count == 1)
        #expect(second.body == Self.plain)
        #expect(second.headerFields[.contentEncoding] == nil)
        #expect(second.headerFields[.contentLength] == String(Self.plain.count))
        #expect(!second.isResponseCompressed)
    }

    @Test func aStreamThatKeepsTheCodingReadsTheBytesAsSentAndTheCacheServesThemDecoded() async throws {
        let cache = MemoryCacheStore()
        let client = Self.client(Self.origin(), cache)
        let streamed = try await client.stream(Request(Self.url))  // waits to inflate: the stream is as sent
        #expect(streamed.head.headerFields[.contentEncoding] == "gzip")
        #expect(try await streamed.body.collect(upTo: .max) == XorCodec.encode(Self.plain))
        #expect(cache.entries.values.first?.body == Self.plain)
        let again = try await client.stream(Request(Self.url))
        #expect(again.info.isFromCache && again.head.headerFields[.contentEncoding] == nil)
        #expect(try await again.body.collect(upTo: .max) == Self.plain)
    }

    @Test func aRevalidatedEntryKeepsServingDecodedBytesWithoutContentEncoding() async throws {
        let cache = MemoryCacheStore()
        let transport = Self.origin(cacheControl: "max-age=0")
        let client = Self.client(transport, cache)
        _ = try await client.send(Request(Self.url))
        for round in 1...2 {
            let revalidated = try await client.send(Request(Self.url))
            #expect(transport.requests.count == round + 1)
            #expect(transport.requests[round].headerFields[.ifNoneMatch] == "\"e1\"")
            #expect(revalidated.info.cacheOutcome == .revalidated)
            #expect(revalidated.body == Self.plain)
            #expect(revalidated.headerFields[.contentEncoding] == nil)
            #expect(revalidated.headerFields[.contentLength] == String(Self.plain.count))
            let entry = try #require(cache.entries.values.first)
            #expect(entry.head.headerFields[.contentEncoding] == nil, "the 304 put Content-Encoding back")
            #expect(entry.head.headerFields[.contentLength] == nil)
            #expect(entry.body == Self.plain)
        }
    }

    @Test func aBodyThatDoesNotInflateIsNotStored() async throws {
        let cache = MemoryCacheStore()
        let truncated = Array(XorCodec.encode(Self.plain).dropLast(XorCodec.trailer.count))
        let client = Self.client(Self.origin(body: truncated), cache)
        await #expect(throws: ClientError.self) { try await client.send(Request(Self.url)) }
        #expect(cache.entries.isEmpty)
        var streamed = Request(Self.url)
        streamed.options.inflatesWhenComplete = true
        _ = try await client.stream(streamed).body.collect(upTo: .max)  // the stream keeps the coding: no error
        #expect(cache.entries.isEmpty, "a body that does not inflate was stored")
    }

    @Test func anEmptyBodyWithAContentEncodingIsStoredEmptyWithoutIt() async throws {
        let cache = MemoryCacheStore()
        let client = Self.client(Self.origin(body: []), cache)
        var request = Request(Self.url)
        request.options.inflatesWhenComplete = true
        _ = try await client.stream(request).body.collect(upTo: .max)
        let entry = try #require(cache.entries.values.first)
        #expect(entry.body.isEmpty && entry.head.headerFields[.contentEncoding] == nil)
    }

    @Test func aCodingWithoutACodecIsStoredAsSentWithItsContentEncoding() async throws {
        let cache = MemoryCacheStore()
        let encoded = XorCodec.encode(Self.plain)
        let client = Self.client(Self.origin(coding: "br", body: encoded), cache)
        _ = try await client.send(Request(Self.url))
        let entry = try #require(cache.entries.values.first)
        #expect(entry.body == encoded)
        #expect(entry.head.headerFields[.contentEncoding] == "br")
        let second = try await client.send(Request(Self.url))
        #expect(second.info.isFromCache && second.body == encoded && second.headerFields[.contentEncoding] == "br")
    }

    @Test func aCompressedAnswerToARequestThatAskedForNoneIsStoredDecodedToo() async throws {
        let cache = MemoryCacheStore()
        let client = Self.client(Self.origin(), cache)
        var request = Request(Self.url)
        request.options.allowsCompressedResponse = false
        let first = try await client.send(request)
        #expect(first.body == Self.plain)
        #expect(cache.entries.values.first?.body == Self.plain)
        let second = try await client.send(request)
        #expect(second.info.isFromCache && second.body == Self.plain && second.headerFields[.contentEncoding] == nil)
    }
}
