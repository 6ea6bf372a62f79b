import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import TestSupport
import Testing

/// A RequestQueue's progress over real sockets: POSIXTransport against LoopbackServer.
@Suite struct QueueProgressLoopbackTests {
    /// A GET of `path` that a busy machine does not time out.
    static func request(_ server: LoopbackServer, _ path: String) -> Request {
        var request = Request(url: server.url(path))
        request.options.timeout = generousTimeout
        return request
    }

    @Test func aHeadPreflightThatFailsStillSendsItsGET() async throws {
        let sizes = ["/a": 1_000, "/b": 20_000, "/broken": 5_000]
        let server = try LoopbackServer { request in
            if request.method == "HEAD", request.path == "/broken" { return .closeWithoutResponse }
            return .ok(bytes: Array(repeating: 0x61, count: sizes[request.path] ?? 0))
        }
        defer { server.shutdown() }
        let sink = RecordingProgressSink()
        let transport = POSIXTransport()
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 2, showsAccurateProgress: true, progress: sink))
        for path in sizes.keys.sorted() { queue.add(Self.request(server, path)) }
        let results = queue.results
        queue.go()
        var statuses: [String: Int] = [:]
        for await result in results { statuses[result.request.url.path()] = try result.response().status.code }
        try await transport.shutdown()

        #expect(statuses == ["/a": 200, "/b": 200, "/broken": 200])  // neither the request nor the queue failed
        let gets = server.requests.filter { $0.method == "GET" }.map(\.path).sorted()
        #expect(gets == ["/a", "/b", "/broken"])
        #expect(server.requests.prefix { $0.method == "HEAD" }.count == server.requests.count - 3)
        // The request whose HEAD failed is one unit of the total: 1,000 + 20,000 + 1.
        let totals = sink.events(.download).filter(\.isAggregate)
        #expect(totals.filter { $0.completedBytes > 0 }.allSatisfy { $0.expectedBytes == 21_001 })
        #expect(totals.last?.completedBytes == 21_001 && totals.last?.expectedBytes == 21_001)
        #expect(queue.downloadProgress == 1.0)
    }
}
