import Dispatch
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@Suite struct ContentDecodingTests {
    static let plain = Array(String(repeating: "decoded text ", count: 100).utf8)

    static func request(_ configure: (inout Request) -> Void = { _ in }) -> Request {
        var request = Request(url: URL(string: "http://a.example/")!)
        configure(&request)
        return request
    }

    @Test func acceptEncodingListsTheCodecsCodings() async throws {
        let transport = ScriptedTransport.ok
        _ = try await Client(transport: transport, codecs: [XorCodec(), XorCodec(encodings: ["br", "gzip"])])
            .send(Self.request())
        #expect(transport.requests.first?.headerFields[.acceptEncoding] == "gzip, deflate, br")
    }

    @Test func noCodecNoAcceptEncoding() async throws {
        let transport = ScriptedTransport.ok
        _ = try await Client(transport: transport).send(Self.request())
        #expect(transport.requests.first?.headerFields[.acceptEncoding] == nil)
    }

    @Test func allowsCompressedResponseOffSendsNone() async throws {
        let transport = ScriptedTransport.ok
        _ = try await Client(transport: transport, codecs: [XorCodec()])
            .send(Self.request { $0.options.allowsCompressedResponse = false })
        #expect(transport.requests.first?.headerFields[.acceptEncoding] == nil)
    }

    @Test func theCallersAcceptEncodingIsKept() async throws {
        let transport = ScriptedTransport.ok
        _ = try await Client(transport: transport, codecs: [XorCodec()])
            .send(Self.request { $0.headerFields[.acceptEncoding] = "identity" })
        #expect(transport.requests.first?.headerFields[.acceptEncoding] == "identity")
    }

    @Test(arguments: ["gzip", "x-gzip", "deflate", "GZIP"])
    func inflatedAtTheEndKeepsTheRawBytes(coding: String) async throws {
        let transport = ScriptedTransport { _, _ in compressedResponse(Self.plain, coding: coding) }
        let response = try await Client(transport: transport, codecs: [XorCodec()]).send(Self.request())
        #expect(response.body == Self.plain)
        #expect(response.rawBody == XorCodec.encode(Self.plain))
        #expect(response.isResponseCompressed)
        #expect(response.text() == String(decoding: Self.plain, as: UTF8.self))
    }

    @Test func inflatedOnTheFlyDiscardsTheRawBytes() async throws {
        let transport = ScriptedTransport { _, _ in compressedResponse(Self.plain, pieces: 50) }
        let response = try await Client(transport: transport, codecs: [XorCodec()])
            .send(Self.request { $0.options.inflatesWhenComplete = false })
        #expect(response.body == Self.plain)
        #expect(response.rawBody == Self.plain)
    }

    @Test func anUncompressedResponseIsUntouched() async throws {
        let transport = ScriptedTransport { _, _ in .text("plain") }
        let response = try await Client(transport: transport, codecs: [XorCodec()]).send(Self.request())
        #expect(response.body == Array("plain".utf8))
        #expect(!response.isResponseCompressed)
    }

    @Test func anUnknownCodingIsPassedThrough() async throws {
        let transport = ScriptedTransport { _, _ in compressedResponse(Self.plain, coding: "br") }
        let response = try await Client(transport: transport, codecs: [XorCodec()]).send(Self.request())
        #expect(response.body == XorCodec.encode(Self.plain))
        #expect(response.isResponseCompressed)
    }

    @Test func withoutACodecTheBodyStaysCompressed() async throws {
        let transport = ScriptedTransport { _, _ in compressedResponse(Self.plain) }
        let response = try await Client(transport: transport).send(Self.request())
        #expect(response.body == XorCodec.encode(Self.plain))
    }

    @Test(arguments: [true, false])
    func aTruncatedBodyFails(atEnd: Bool) async throws {
        let transport = ScriptedTransport { _, _ in
            let encoded = Array(XorCodec.encode(Self.plain).dropLast(2))
            var fields = HTTPFields()
            fields[.contentEncoding] = "gzip"
            return Response(status: .ok, headerFields: fields, body: ResponseBody(bytes: encoded))
        }
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: transport, codecs: [XorCodec()])
                .send(Self.request { $0.options.inflatesWhenComplete = atEnd })
        }
        #expect(error?.code == .compressionFailed)
        #expect(error?.stage == .codec)
    }

    /// A complete body that does not inflate is never kept in the cache, whether it is inflated at the end or as
    /// it arrives; a cache hit would otherwise fail the same way until the entry expired.
    @Test(arguments: [true, false])
    func aBodyThatDoesNotInflateIsNotCached(atEnd: Bool) async throws {
        let transport = ScriptedTransport { _, _ in
            let encoded = Array(XorCodec.encode(Self.plain).dropLast(2))
            var fields = HTTPFields()
            fields[.contentEncoding] = "gzip"
            fields[.cacheControl] = "max-age=600"
            return Response(status: .ok, headerFields: fields, body: ResponseBody(bytes: encoded))
        }
        let cache = MemoryCacheStore()
        let client = Client(transport: transport, cache: cache, codecs: [XorCodec()])
        let request = Self.request { $0.options.inflatesWhenComplete = atEnd }
        for _ in 0..<2 {
            await #expect(throws: ClientError.self) { try await client.send(request) }
        }
        #expect(try await cache.entry(forKey: "http://a.example") == nil)
        #expect(transport.requests.count == 2)  // the second request went to the network, not to a bad entry
    }

    @Test func headAndNotModifiedAreNotDecoded() async throws {
        let transport = ScriptedTransport { _, _ in
            var fields = HTTPFields()
            fields[.contentEncoding] = "gzip"
            return Response(status: .ok, headerFields: fields)
        }
        let response = try await Client(transport: transport, codecs: [XorCodec()])
            .send(Request(url: URL(string: "http://a.example/")!, method: .head))
        #expect(response.body.isEmpty)
    }

    @Test(arguments: [true, false])
    func streamedChunksAreInflatedOnlyOnTheFly(atEnd: Bool) async throws {
        let transport = ScriptedTransport { _, _ in compressedResponse(Self.plain, pieces: 10) }
        let response = try await Client(transport: transport, codecs: [XorCodec()])
            .stream(Self.request { $0.options.inflatesWhenComplete = atEnd })
        var received: [UInt8] = []
        var chunks = 0
        for try await chunk in response.body {
            received += chunk
            chunks += 1
        }
        #expect(received == (atEnd ? XorCodec.encode(Self.plain) : Self.plain))
        #expect(chunks > 1, "streamed, not buffered")
    }

    @Test func dataCallbacksReceiveInflatedChunksOnTheFly() async throws {
        let transport = ScriptedTransport { _, _ in compressedResponse(Self.plain, pieces: 10) }
        let received = Mutex<[[UInt8]]>([])
        let finished = Mutex<ClientResponse?>(nil)
        let handle = Client(transport: transport, codecs: [XorCodec()]).start(
            Self.request { $0.options.inflatesWhenComplete = false },
            callbacks: RequestCallbacks(
                receivedData: { chunk in received.withLock { $0.append(chunk) } },
                finished: { response in finished.withLock { $0 = response } }))
        await handle.wait()
        await withCheckedContinuation { continuation in Client.callbackQueue.async { continuation.resume() } }
        #expect(received.withLock { $0.flatMap { $0 } } == Self.plain)
        #expect(received.withLock { $0.count } > 1)
        #expect(finished.withLock { $0?.body } == [])
    }
}

@Suite struct PartialContentDecodingTests {
    @Test func aPartialResponseOfCompressedBytesIsNotInflated() async throws {
        let slice = Array(XorCodec.encode(ContentDecodingTests.plain).dropFirst(10))
        let transport = ScriptedTransport { _, _ in
            Response(
                status: .partialContent,
                headerFields: fields([(.contentEncoding, "gzip"), (.contentRange, "bytes 10-99/100")]),
                body: ResponseBody(bytes: slice))
        }
        var request = Request(url: URL(string: "http://a.example/")!)
        request.headerFields[.range] = "bytes=10-"
        let response = try await Client(transport: transport, codecs: [XorCodec()]).send(request)
        #expect(response.body == slice)
    }
}

@Suite struct TextEncodingTests {
    static func response(_ bytes: [UInt8], contentType: String?) async throws -> ClientResponse {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        let transport = ScriptedTransport { [fields] _, _ in
            Response(status: .ok, headerFields: fields, body: ResponseBody(bytes: bytes))
        }
        return try await Client(transport: transport).send(Request(url: URL(string: "http://a.example/")!))
    }

    @Test(
        arguments: [
            ("text/html; charset=UTF-8", [0xC3, 0xA9], "é"),
            ("text/html; charset=\"iso-8859-1\"", [0xE9], "é"),
            ("text/html; charset=windows-1252", [0x80, 0x93, 0x94, 0xE9], "€“”é"),
            ("text/plain; charset=utf-16", [0xFF, 0xFE, 0x41, 0x00, 0xAC, 0x20], "A€"),
            ("text/plain; charset=utf-16", [0x00, 0x41, 0x20, 0xAC], "A€"),
            ("text/plain; charset=UTF-16LE", [0x41, 0x00], "A"),
            ("text/plain; charset=utf-16be", [0x00, 0x41, 0x00], "A\u{FFFD}"),
        ] as [(String, [UInt8], String)])
    func charsetsAreDecoded(contentType: String, bytes: [UInt8], text: String) async throws {
        #expect(try await Self.response(bytes, contentType: contentType).text() == text)
    }

    /// `café` in UTF-8 under types that are UTF-8 by definition, with no charset: never ISO-8859-1's `cafÃ©`.
    @Test(arguments: [
        "application/json", "Application/JSON ; q=1", "application/problem+json", "application/ld+json",
        "application/yaml", "application/vnd.api+yaml", "text/javascript", "application/javascript",
        "text/event-stream", "text/vtt", "application/x-www-form-urlencoded", "application/xml", "text/xml",
        "image/svg+xml",
    ])
    func typesThatAreUTF8ByDefinitionAreDecodedAsUTF8(contentType: String) async throws {
        let cafe: [UInt8] = [0x63, 0x61, 0x66, 0xC3, 0xA9]
        #expect(try await Self.response(cafe, contentType: contentType).text() == "café")
        #expect(TextEncoding(impliedBy: contentType, body: cafe) == .utf8)
    }

    @Test func aCharsetStillWinsAndOtherTypesKeepTheDefault() async throws {
        #expect(try await Self.response([0xE9], contentType: "application/json; charset=iso-8859-1").text() == "é")
        for contentType in ["text/plain", "text/html", "text/csv", "application/octet-stream", "application/jsonx"] {
            #expect(TextEncoding(impliedBy: contentType) == nil, "\(contentType)")
        }
        #expect(try await Self.response([0xE9], contentType: "text/html").text() == "é")
    }

    @Test func charsetlessXMLFollowsItsByteOrderMarkAndDeclaration() {
        let latin1 = Array(#"<?xml version="1.0" encoding='iso-8859-1'?><a>"#.utf8) + [0xE9]
        #expect(TextEncoding(impliedBy: "application/xml", body: latin1) == .isoLatin1)
        #expect(TextEncoding(impliedBy: "text/xml", body: Array(#"<?xml version="1.0"?><a/>"#.utf8)) == .utf8)
        #expect(TextEncoding(impliedBy: "application/atom+xml", body: [0xFF, 0xFE, 0x3C, 0x00]) == .utf16)
        let unknown = Array(#"<?xml version="1.0" encoding="EBCDIC-US"?>"#.utf8)
        #expect(TextEncoding(impliedBy: "application/xml", body: unknown) == .utf8, "an unknown name: UTF-8")
    }

    @Test func theDefaultEncodingAppliesWithoutACharset() async throws {
        #expect(try await Self.response([0xE9], contentType: "text/plain").text() == "é")
        #expect(try await Self.response([0xE9], contentType: nil).text(defaultEncoding: .utf8) == "\u{FFFD}")
        let unknown = try await Self.response([0x80], contentType: "text/plain; charset=klingon")
        #expect(unknown.text(defaultEncoding: .windows1252) == "€")
        #expect(TextEncoding(charset: "nope") == nil)
    }
}
