import FoundationEssentials
import Glibc
import HTTPCore
import Testing

@Suite struct RequestBodyTests {
    func collect(_ body: RequestBody) async throws -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        for try await chunk in body.makeChunks() { chunks.append(chunk) }
        return chunks
    }

    @Test func bytesAndString() async throws {
        #expect(RequestBody.string("héllo").length == 6)
        #expect(try await collect(.bytes([1, 2, 3])) == [[1, 2, 3]])
        #expect(try await collect(.bytes([])).isEmpty)
    }

    @Test func fileIsReadInChunksAndCanBeReplayed() async throws {
        let path = "/tmp/asikit-body-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(path) }
        let size = RequestBody.fileChunkSize * 2 + 123
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let body = try RequestBody.file(atPath: path)
        #expect(body.length == Int64(size) && body.isReplayable)
        for _ in 0..<2 {
            let chunks = try await collect(body)
            #expect(chunks.map(\.count) == [RequestBody.fileChunkSize, RequestBody.fileChunkSize, 123])
            #expect(Array(chunks.joined()) == bytes)
        }
    }

    @Test func missingFileOrDirectoryIsAStorageError() {
        for path in ["/nonexistent/asikit", "/tmp"] {
            let error = #expect(throws: ClientError.self) { try RequestBody.file(atPath: path) }
            #expect(error?.code == .storageFailed)
        }
    }

    @Test func fileThatShrinksFailsInsteadOfSendingShortData() async throws {
        let path = "/tmp/asikit-shrink-\(getpid())"
        defer { unlink(path) }
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: path))
        let body = try RequestBody.file(atPath: path)
        truncate(path, 10)
        await #expect(throws: ClientError.self) { try await collect(body) }
    }

    @Test func streamBodies() async throws {
        let body = RequestBody.stream(length: nil, isReplayable: true) { RequestBody.Chunks([[1], [2, 3]]) }
        #expect(body.length == nil)
        #expect(try await collect(body) == [[1], [2, 3]])
        #expect(try await collect(body) == [[1], [2, 3]])
    }
}

@Suite struct RequestTests {
    @Test(arguments: [
        (HTTPRequest.Method.get, false, nil as Bool?, true),
        (.head, false, nil, true),
        (.delete, false, nil, true),
        (.post, false, nil, false),
        (.put, false, nil, false),
        (.get, true, nil, false),
        (.post, true, true, true),
        (.get, false, false, false),
    ])
    func persistentConnectionRule(method: HTTPRequest.Method, hasBody: Bool, explicit: Bool?, expected: Bool) {
        var request = Request(url: URL(string: "http://a.example/")!, method: method)
        if hasBody { request.body = .string("x") }
        request.options.persistentConnection = explicit
        #expect(request.usesPersistentConnection == expected)
    }

    @Test func idempotence() {
        var request = Request(url: URL(string: "http://a.example/")!)
        #expect(request.isIdempotent)
        request.method = .post
        #expect(!request.isIdempotent)
        request.method = .put
        request.body = .stream(length: 1) { RequestBody.Chunks([[1]]) }
        #expect(!request.isIdempotent)  // a one-time stream cannot be sent twice
    }

    @Test func defaultsAreASIHTTPRequests() {
        let options = RequestOptions()
        #expect(options.timeout == .seconds(10))
        #expect(options.retriesOnTimeout == 0)
        #expect(options.followsRedirects && options.maxRedirects == 5 && options.redirectBehavior == .browser)
        #expect(options.presentsCredentialsBeforeChallenge && options.usesCredentialStore && options.usesCookieStore)
        #expect(options.httpVersion == .http1_1)
        #expect(options.persistentConnectionTimeout == .seconds(60))
        #expect(options.tls.validatesCertificate)
    }
}
