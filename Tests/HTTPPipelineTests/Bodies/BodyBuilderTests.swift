import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

@Suite struct BodyBuilderTests {
    @Test func appendedDataAndFilesStreamInOrder() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let file = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        try writeFile(directory + "/f", file)
        var builder = RequestBodyBuilder()
        builder.append(Array("head|".utf8))
        builder.append([UInt8]())
        try builder.appendFile(atPath: directory + "/f")
        builder.append("|tail")
        let body = builder.body
        #expect(body.length == Int64(5 + file.count + 5))
        #expect(body.isReplayable)
        #expect(try await collect(body) == Array("head|".utf8) + file + Array("|tail".utf8))
        #expect(try await collect(body) == Array("head|".utf8) + file + Array("|tail".utf8))
    }

    @Test func aSingleFileIsSentAsAFileBody() throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        try writeFile(directory + "/f", [1, 2, 3])
        var builder = RequestBodyBuilder()
        try builder.appendFile(atPath: directory + "/f")
        guard case .file(_, 3) = builder.body.content else {
            Issue.record("expected a file body")
            return
        }
        #expect(throws: ClientError.self) { try builder.appendFile(atPath: directory + "/none") }
    }

    @Test(arguments: [
        (HTTPRequest.Method.get, HTTPRequest.Method.post), (.head, .post), (.delete, .delete), (.put, .put),
        (.post, .post), (HTTPRequest.Method("FINK")!, HTTPRequest.Method("FINK")!),
    ])
    func methodsWithABody(method: HTTPRequest.Method, sent: HTTPRequest.Method) async throws {
        let transport = ScriptedTransport.ok
        let request = Request(url: URL(string: "http://a.example/")!, method: method, body: .string("x"))
        _ = try await Client(transport: transport).send(request)
        #expect(transport.requests.first?.method == sent)
    }

    @Test func anEmptyBodyKeepsGet() async throws {
        let transport = ScriptedTransport.ok
        _ = try await Client(transport: transport).send(
            Request(url: URL(string: "http://a.example/")!, body: .bytes([])))
        #expect(transport.requests.first?.method == .get)
    }
}

@Suite struct RequestCompressionTests {
    static func client(_ transport: ScriptedTransport) -> Client {
        Client(transport: transport, codecs: [XorCodec()])
    }

    @Test func aMemoryBodyIsCompressedWithItsLength() async throws {
        let transport = ScriptedTransport.ok
        var request = Request(url: URL(string: "http://a.example/")!, method: .put, body: .string("hello"))
        request.options.compressesRequestBody = true
        _ = try await Self.client(transport).send(request)
        let sent = try #require(transport.requests.first)
        #expect(sent.headerFields[.contentEncoding] == "gzip")
        #expect(sent.body?.length == Int64(5 + 4))
        #expect(try await collect(sent.body) == XorCodec.encode(Array("hello".utf8)))
    }

    @Test func aFileBodyIsCompressedWhileSentChunked() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let plain = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 / 7) }
        try writeFile(directory + "/f", plain)
        let transport = ScriptedTransport.ok
        var request = Request(
            url: URL(string: "http://a.example/")!, method: .put, body: try .file(atPath: directory + "/f"))
        request.options.compressesRequestBody = true
        _ = try await Self.client(transport).send(request)
        let sent = try #require(transport.requests.first)
        #expect(sent.body?.length == nil)
        #expect(sent.body?.isReplayable == true)
        #expect(try await collect(sent.body) == XorCodec.encode(plain))
        #expect(try await collect(sent.body) == XorCodec.encode(plain), "replayable")
    }

    @Test func http10CountsTheCompressedLengthFirst() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        try writeFile(directory + "/f", Array(repeating: 7, count: 1_000))
        let transport = ScriptedTransport.ok
        var request = Request(
            url: URL(string: "http://a.example/")!, method: .post, body: try .file(atPath: directory + "/f"))
        request.options.compressesRequestBody = true
        request.options.httpVersion = .http1_0
        _ = try await Self.client(transport).send(request)
        #expect(transport.requests.first?.body?.length == 1_004)
    }

    @Test func compressionWithoutACodecIsAConfigurationError() async throws {
        var request = Request(url: URL(string: "http://a.example/")!, method: .post, body: .string("x"))
        request.options.compressesRequestBody = true
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: ScriptedTransport.ok).send(request)
        }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test func noBodyNoCompression() async throws {
        let transport = ScriptedTransport.ok
        var request = Request(url: URL(string: "http://a.example/")!)
        request.options.compressesRequestBody = true
        _ = try await Self.client(transport).send(request)
        #expect(transport.requests.first?.headerFields[.contentEncoding] == nil)
    }
}
