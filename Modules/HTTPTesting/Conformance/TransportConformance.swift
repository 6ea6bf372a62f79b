import FoundationEssentials
public import HTTPCore
import Logging

/// Checks that a ``Transport`` keeps the contract the pipeline relies on, against a ``LoopbackServer``:
/// exact bodies both ways, error statuses as responses, no body for `HEAD`, chunked and close-delimited bodies,
/// progress, typed errors for lying peers, the inactivity timeout and cancellation.
///
/// ```swift
/// @Test func conforms() async throws {
///     try await TransportConformance.run { MyTransport() }
/// }
/// ```
public enum TransportConformance {
    /// Runs every check, each with a fresh transport that is shut down afterwards.
    /// - Parameter makeTransport: Makes a transport.
    /// - Throws: ``ConformanceFailure`` for the first failed check, or what the transport or server throws.
    public static func run(_ makeTransport: () async throws -> any Transport) async throws {
        let server = try LoopbackServer(handler: route)
        defer { server.shutdown() }
        var checker = ConformanceChecker(suite: "TransportConformance")
        let progress = RecordingProgressSink()
        let context = RequestContext(progress: progress, logger: Logger(label: "conformance"))
        func request(_ path: String, _ method: HTTPRequest.Method = .get) -> Request {
            var request = Request(url: server.url(path), method: method)
            request.options.timeout = .seconds(5)
            return request
        }

        for check in Check.allCases {
            checker.check = "\(check)"
            let transport = try await makeTransport()
            defer { Task { try? await transport.shutdown() } }
            switch check {
            case .getBody:
                let response = try await transport.send(request("/bytes"), context: context)
                try checker.expect(response.status == .ok, "status \(response.status.code)")
                let body = try await response.body.collect(upTo: 1 << 20)
                try checker.expect(body == payload, "got \(body.count) bytes, expected \(payload.count)")
                let downloads = progress.events(.download).filter { $0.requestID == context.requestID }
                try checker.expect(downloads.last?.completedBytes == Int64(payload.count),
                                   "download progress must end at the body length")
            case .postBodyArrives:
                var post = request("/echo", .post)
                post.body = .bytes(payload)
                let body = try await transport.send(post, context: context).body.collect(upTo: 1 << 20)
                try checker.expect(body == payload, "the server received \(body.count) of \(payload.count) bytes")
            case .streamedBodyWithoutLength:
                var post = request("/echo", .post)
                post.body = .stream(length: nil) { RequestBody.Chunks([Array(payload[..<1000]), Array(payload[1000...])]) }
                let body = try await transport.send(post, context: context).body.collect(upTo: 1 << 20)
                try checker.expect(body == payload, "a chunked upload arrived as \(body.count) bytes")
            case .errorStatusIsAResponse:
                let response = try await transport.send(request("/missing"), context: context)
                try checker.expect(response.status == .notFound, "a 404 must be returned, got \(response.status.code)")
                _ = try await response.body.collect(upTo: 1 << 20)
            case .headHasNoBody:
                let response = try await transport.send(request("/bytes", .head), context: context)
                let body = try await response.body.collect(upTo: 1 << 20)
                try checker.expect(body.isEmpty, "HEAD returned \(body.count) body bytes")
            case .chunkedResponse:
                let body = try await transport.send(request("/chunked"), context: context).body.collect(upTo: 1 << 20)
                try checker.expect(body == Array("hello, world".utf8), "chunked body was \(body)")
            case .closeDelimitedResponse:
                let body = try await transport.send(request("/close-delimited"), context: context).body
                    .collect(upTo: 1 << 20)
                try checker.expect(body == Array("until close".utf8), "close-delimited body was \(body)")
            case .shortBodyIsAnError:
                try await expectFailure(checker, "a body shorter than its Content-Length must throw") {
                    _ = try await transport.send(request("/short"), context: context).body.collect(upTo: 1 << 20)
                }
            case .inactivityTimeout:
                var stalled = request("/stall")
                stalled.options.timeout = .milliseconds(200)
                do {
                    _ = try await transport.send(stalled, context: context).body.collect(upTo: 1 << 20)
                    try checker.expect(false, "a stalled server must time out")
                } catch let error as ClientError {
                    try checker.expect(error.code == .timedOut, "expected timedOut, got \(error.code)")
                }
            case .cancellation:
                let task = Task { try await transport.send(request("/stall"), context: context) }
                try await Task.sleep(for: .milliseconds(50))
                task.cancel()
                let result = await task.result
                try checker.expect((try? result.get()) == nil, "a cancelled send must throw")
            }
        }
    }

    private enum Check: CaseIterable {
        case getBody, postBodyArrives, streamedBodyWithoutLength, errorStatusIsAResponse, headHasNoBody
        case chunkedResponse, closeDelimitedResponse, shortBodyIsAnError, inactivityTimeout, cancellation
    }

    private static let payload: [UInt8] = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

    @Sendable private static func route(_ request: RecordedRequest) -> LoopbackResponse {
        switch request.path {
        case "/bytes": .ok(bytes: payload)
        case "/echo": .ok(bytes: request.body)
        case "/chunked": .chunked(chunks: [Array("hello, ".utf8), Array("world".utf8)])
        case "/close-delimited": .raw("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil close", thenClose: true)
        case "/short": .raw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly a few", thenClose: true)
        case "/stall": .stall
        default: .status(404, body: Array("not found".utf8))
        }
    }

    private static func expectFailure(
        _ checker: ConformanceChecker,
        _ detail: String,
        _ body: () async throws -> Void
    ) async throws {
        do {
            try await body()
        } catch is ClientError {
            return
        }
        try checker.expect(false, detail)
    }
}
