import Dispatch
import Glibc
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@Suite struct DownloadTests {
    static let content = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    static func request(to directory: String, resume: Bool = false, temporary: String? = nil) -> Request {
        var request = Request(url: URL(string: "http://a.example/file")!)
        request.options.download = DownloadOptions(
            destinationPath: directory + "/out.bin", temporaryPath: temporary, allowsResume: resume)
        return request
    }

    /// Serves `content` honouring `Range: bytes=N-` with 206, like a static file server.
    static func rangeServer(_ content: [UInt8], pieces: Int = 4) -> ScriptedTransport {
        ScriptedTransport { request, _ in
            guard let range = request.headerFields[.range], range.hasPrefix("bytes="),
                let start = Int(range.dropFirst(6).dropLast())
            else { return Response(status: .ok, body: chunked(content, pieces: pieces)) }
            guard start < content.count else {
                return Response(
                    status: HTTPResponse.Status(code: 416),
                    headerFields: fields([(.contentRange, "bytes */\(content.count)")]),
                    body: ResponseBody(bytes: Array("<html>416</html>".utf8)))
            }
            return Response(
                status: .partialContent,
                headerFields: fields([(.contentRange, "bytes \(start)-\(content.count - 1)/\(content.count)")]),
                body: chunked(Array(content[start...]), pieces: pieces))
        }
    }

    static func chunked(_ bytes: [UInt8], pieces: Int) -> ResponseBody {
        let size = max(1, bytes.count / pieces)
        let chunks = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
        return ResponseBody(expectedLength: Int64(bytes.count), source: BufferedBodySource(chunks))
    }

    @Test func theBodyGoesToTheDestinationAndTheTemporaryFileIsGone() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        try writeFile(directory + "/out.bin", Array("old".utf8))
        let response = try await Client(transport: Self.rangeServer(Self.content)).send(Self.request(to: directory))
        #expect(response.status == .ok)
        #expect(response.body.isEmpty)
        #expect(readFile(directory + "/out.bin") == Self.content)
        #expect(listing(directory) == ["out.bin"])
    }

    @Test func anEmptyBodyCreatesNoFile() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        _ = try await Client(transport: ScriptedTransport.ok).send(Self.request(to: directory))
        #expect(listing(directory).isEmpty)
    }

    @Test func aMissingDirectoryFailsWithStorageFailed() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: Self.rangeServer(Self.content)).send(Self.request(to: directory + "/nope"))
        }
        #expect(error?.code == .storageFailed)
    }

    @Test func aDestinationThatIsNotARegularFileIsNeverReplaced() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        mkdir(directory + "/out.bin", 0o755)  // a directory where the file would go
        try writeFile(directory + "/target", Array("keep".utf8))
        var viaLink = Self.request(to: directory)
        viaLink.options.download?.destinationPath = directory + "/link"
        symlink(directory + "/target", directory + "/link")
        for request in [Self.request(to: directory), viaLink] {
            let error = await #expect(throws: ClientError.self) {
                try await Client(transport: Self.rangeServer(Self.content)).send(request)
            }
            #expect(error?.code == .storageFailed)
        }
        #expect(readFile(directory + "/target") == Array("keep".utf8))
        #expect(listing(directory) == ["link", "out.bin", "target"])
    }

    @Test func anErrorStatusIsKeptInMemoryAndTouchesNoFile() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        try writeFile(directory + "/out.bin", Array("good".utf8))
        let transport = ScriptedTransport { _, _ in .text("missing", status: 404) }
        let response = try await Client(transport: transport).send(Self.request(to: directory))
        #expect(response.status == .notFound)
        #expect(response.body == Array("missing".utf8))
        #expect(readFile(directory + "/out.bin") == Array("good".utf8))
        #expect(listing(directory) == ["out.bin"])
    }

    @Test(arguments: [false, true])
    func aFailureRemovesTheTemporaryFileUnlessResumeIsAllowed(resume: Bool) async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let transport = ScriptedTransport { _, _ in
            Response(
                status: .ok, body: ResponseBody(expectedLength: 2, source: StallingBodySource(failsWithTimeout: true)))
        }
        let request = Self.request(to: directory, resume: resume, temporary: directory + "/part")
        await #expect(throws: ClientError.self) { try await Client(transport: transport).send(request) }
        #expect(listing(directory) == (resume ? ["part"] : []))
        if resume { #expect(readFile(directory + "/part") == [1]) }
    }

    @Test func anAutomaticTemporaryFileIsNeverKept() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let transport = ScriptedTransport { _, _ in
            Response(
                status: .ok, body: ResponseBody(expectedLength: 2, source: StallingBodySource(failsWithTimeout: true)))
        }
        let request = Self.request(to: directory, resume: true, temporary: nil)
        await #expect(throws: ClientError.self) { try await Client(transport: transport).send(request) }
        #expect(listing(directory).isEmpty)
    }

    @Test func resumeAsksForTheRestAndAppends() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        try writeFile(directory + "/part", Array(Self.content.prefix(30_000)))
        let transport = Self.rangeServer(Self.content)
        let response = try await Client(transport: transport)
            .send(Self.request(to: directory, resume: true, temporary: directory + "/part"))
        #expect(transport.requests.first?.headerFields[.range] == "bytes=30000-")
        #expect(response.status == .partialContent)
        #expect(readFile(directory + "/out.bin") == Self.content)
        #expect(listing(directory) == ["out.bin"])
    }

    @Test func resumeWithoutAPartialFileSendsNoRange() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let transport = Self.rangeServer(Self.content)
        _ = try await Client(transport: transport)
            .send(Self.request(to: directory, resume: true, temporary: directory + "/part"))
        #expect(transport.requests.first?.headerFields[.range] == nil)
        #expect(readFile(directory + "/out.bin") == Self.content)
    }

    @Test func aServerIgnoringRangeRestartsTheFileFromZero() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        try writeFile(directory + "/part", Array(repeating: 0xEE, count: 50_000))
        let transport = ScriptedTransport { _, _ in Response(status: .ok, body: Self.chunked(Self.content, pieces: 3)) }
        _ = try await Client(transport: transport)
            .send(Self.request(to: directory, resume: true, temporary: directory + "/part"))
        #expect(transport.requests.first?.headerFields[.range] == "bytes=50000-")
        #expect(readFile(directory + "/out.bin") == Self.content)
    }

    @Test func a416ForACompleteFileFinishesTheDownload() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        try writeFile(directory + "/part", Self.content)
        let response = try await Client(transport: Self.rangeServer(Self.content))
            .send(Self.request(to: directory, resume: true, temporary: directory + "/part"))
        #expect(response.status.code == 416)
        #expect(readFile(directory + "/out.bin") == Self.content)
        #expect(listing(directory) == ["out.bin"])
    }

    @Test func a416ForALongerFileRemovesThePartialFile() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        try writeFile(directory + "/part", Self.content + [1, 2, 3])
        let response = try await Client(transport: Self.rangeServer(Self.content))
            .send(Self.request(to: directory, resume: true, temporary: directory + "/part"))
        #expect(response.status.code == 416)
        #expect(response.body == Array("<html>416</html>".utf8))
        #expect(listing(directory).isEmpty)
    }

    @Test func aResumeAtTheWrongOffsetFails() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        try writeFile(directory + "/part", [1, 2, 3])
        let transport = ScriptedTransport { _, _ in
            Response(
                status: .partialContent, headerFields: fields([(.contentRange, "bytes 0-9/10")]),
                body: ResponseBody(bytes: Array(repeating: 9, count: 10)))
        }
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: transport)
                .send(Self.request(to: directory, resume: true, temporary: directory + "/part"))
        }
        #expect(error?.code == .protocolViolation)
        #expect(readFile(directory + "/part") == [1, 2, 3])
    }

    @Test func aTimeoutRetryMidDownloadAsksForWhatIsStillMissing() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let attempts = Atomic<Int>(0)
        let inner = Self.rangeServer(Self.content)
        let transport = ScriptedTransport { request, context in
            guard attempts.add(1, ordering: .relaxed).newValue == 1 else {
                return try await inner.send(request, context: context)
            }
            let source = FailingAfterBodySource(first: Array(Self.content.prefix(40_000)))
            return Response(status: .ok, body: ResponseBody(expectedLength: Int64(Self.content.count), source: source))
        }
        var request = Self.request(to: directory, resume: true, temporary: directory + "/part")
        request.options.retriesOnTimeout = 1
        let response = try await Client(transport: transport).send(request)
        #expect(response.info.retryCount == 1)
        #expect(transport.requests.map { $0.headerFields[.range] } == [nil, "bytes=40000-"])
        #expect(readFile(directory + "/out.bin") == Self.content)
    }

    @Test(arguments: [true, false])
    func aCompressedBodyIsInflatedIntoTheDestination(atEnd: Bool) async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let transport = ScriptedTransport { _, _ in compressedResponse(Self.content, pieces: 7) }
        var request = Self.request(to: directory)
        request.options.inflatesWhenComplete = atEnd
        _ = try await Client(transport: transport, codecs: [XorCodec()]).send(request)
        #expect(readFile(directory + "/out.bin") == Self.content)
        #expect(listing(directory) == ["out.bin"])
    }

    @Test func aCorruptCompressedDownloadLeavesNothing() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let transport = ScriptedTransport { _, _ in
            Response(
                status: .ok, headerFields: fields([(.contentEncoding, "gzip")]),
                body: ResponseBody(bytes: Array(XorCodec.encode(Self.content).dropLast())))
        }
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: transport, codecs: [XorCodec()])
                .send(Self.request(to: directory, resume: true, temporary: directory + "/part"))
        }
        #expect(error?.code == .compressionFailed)
        #expect(listing(directory).isEmpty)
    }

    @Test func aDataCallbackTakesTheBodyInsteadOfTheFile() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let received = Mutex<Int>(0)
        let handle = Client(transport: Self.rangeServer(Self.content)).start(
            Self.request(to: directory),
            callbacks: RequestCallbacks(receivedData: { chunk in received.withLock { $0 += chunk.count } }))
        await handle.wait()
        await withCheckedContinuation { continuation in Client.callbackQueue.async { continuation.resume() } }
        #expect(received.withLock { $0 } == Self.content.count)
        #expect(listing(directory).isEmpty)
    }
}

/// Yields `first`, then times out.
final class FailingAfterBodySource: ResponseBodySource {
    private let first: [UInt8]
    private let step = Atomic<Int>(0)
    init(first: [UInt8]) { self.first = first }
    func next() async throws -> [UInt8]? {
        if step.add(1, ordering: .relaxed).newValue == 1 { return first }
        throw ClientError(.timedOut, message: "stalled mid-body")
    }
    func discard() async {}
}
