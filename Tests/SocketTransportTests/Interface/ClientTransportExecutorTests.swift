import HTTPCore
@testable import HTTPPipeline
import HTTPTesting
@testable import SocketTransport
import Synchronization
import TestSupport
import Testing

/// `Client.Configuration.runsOnTransportExecutor` with `POSIXTransport.preferredTaskExecutor`: a request joins
/// the event loop only while another request of the transport waits for its head, and never when turned off.
@Suite struct ClientTransportExecutorTests {
    /// Records the name of the thread that runs the code after the transport's answer came back.
    final class ThreadRecorder: Middleware {
        let names = Mutex<[String]>([])

        func intercept(
            _ request: Request, context: RequestContext,
            next: @Sendable (Request, RequestContext) async throws -> Response
        ) async throws -> Response {
            let response = try await next(request, context)
            let name = POSIXTransportTaskExecutorTests.threadName()
            names.withLock { $0.append(name) }
            return response
        }
    }

    /// A server that answers `/ok` at once and never answers `/stall`; a client on a new transport.
    static func setUp(runsOnTransportExecutor: Bool = true) throws
        -> (LoopbackServer, POSIXTransport, Client, ThreadRecorder)
    {
        let server = try LoopbackServer { request in request.path == "/stall" ? .stall : .ok("fine") }
        let transport = POSIXTransport()
        let recorder = ThreadRecorder()
        var configuration = Client.Configuration()
        configuration.runsOnTransportExecutor = runsOnTransportExecutor
        let client = Client(transport: transport, middleware: [recorder], configuration: configuration)
        return (server, transport, client, recorder)
    }

    /// Runs `body` while another request of `client` waits at the server for its head (for at most five minutes),
    /// then cancels that request and waits until it has ended.
    static func besideAStalledRequest(
        _ server: LoopbackServer, _ client: Client, _ body: () async throws -> Void
    ) async throws {
        let arrived = server.requests.count
        var request = Request(url: server.url("/stall"))
        request.options.timeout = .seconds(300)
        let stalled = Task { try await client.send(request) }
        defer { stalled.cancel() }
        #expect(await eventually { server.requests.count == arrived + 1 })
        try await body()
        stalled.cancel()
        _ = await stalled.result
    }

    @Test func theLoopIsOfferedOnlyWhileARequestAwaitsItsHead() async throws {
        let (server, transport, client, _) = try Self.setUp()
        defer { server.shutdown() }
        #expect(transport.preferredTaskExecutor == nil)
        _ = try await client.send(Request(url: server.url("/ok")))
        #expect(transport.preferredTaskExecutor == nil, "nothing is in flight after the answer")

        try await Self.besideAStalledRequest(server, client) {
            #expect(transport.preferredTaskExecutor != nil)
        }
        #expect(transport.preferredTaskExecutor == nil)
        try await transport.shutdown()
    }

    @Test func aRequestBesideABusyLoopRunsOnTheLoopThread() async throws {
        let (server, transport, client, recorder) = try Self.setUp()
        defer { server.shutdown() }
        try await Self.besideAStalledRequest(server, client) {
            let response = try await client.send(Request(url: server.url("/ok")))
            #expect(response.text() == "fine")
            #expect(recorder.names.withLock { $0 } == ["asi-loop-0"])
        }
        try await transport.shutdown()
    }

    @Test func theCallersCodeAfterSendDoesNotRunOnTheLoop() async throws {
        let (server, transport, client, recorder) = try Self.setUp()
        defer { server.shutdown() }
        try await Self.besideAStalledRequest(server, client) {
            var after: [String] = []
            for _ in 0..<3 {
                _ = try await client.send(Request(url: server.url("/ok")))
                after.append(POSIXTransportTaskExecutorTests.threadName())
            }
            #expect(recorder.names.withLock { $0 } == Array(repeating: "asi-loop-0", count: 3))
            #expect(after.allSatisfy { $0 != "asi-loop-0" }, "\(after)")
        }
        try await transport.shutdown()
    }

    @Test func moreThanOneLoopOffersNone() async throws {
        let server = try LoopbackServer { request in request.path == "/stall" ? .stall : .ok("fine") }
        defer { server.shutdown() }
        let transport = POSIXTransport(configuration: .init(loopCount: 2))
        let client = Client(transport: transport)
        try await Self.besideAStalledRequest(server, client) {
            #expect(transport.preferredTaskExecutor == nil)
        }
        try await transport.shutdown()
    }

    @Test func aLoneRequestStaysOnTheCallersExecutor() async throws {
        let (server, transport, client, recorder) = try Self.setUp()
        defer { server.shutdown() }
        for _ in 0..<3 { _ = try await client.send(Request(url: server.url("/ok"))) }
        #expect(recorder.names.withLock { $0 }.count == 3)
        #expect(recorder.names.withLock { $0 }.allSatisfy { $0 != "asi-loop-0" })
        try await transport.shutdown()
    }

    @Test func turnedOffNoRequestRunsOnTheLoopThread() async throws {
        let (server, transport, client, recorder) = try Self.setUp(runsOnTransportExecutor: false)
        defer { server.shutdown() }
        try await Self.besideAStalledRequest(server, client) {
            _ = try await client.send(Request(url: server.url("/ok")))
            #expect(recorder.names.withLock { $0 }.count == 1)
            #expect(recorder.names.withLock { $0 }.allSatisfy { $0 != "asi-loop-0" })
        }
        try await transport.shutdown()
    }

    @Test func queuedRequestsBesideABusyLoopRunOnTheLoopThread() async throws {
        let (server, transport, client, recorder) = try Self.setUp()
        defer { server.shutdown() }
        try await Self.besideAStalledRequest(server, client) {
            let queue = RequestQueue(client: client)
            let results = queue.results  // before go(), to see every result
            for _ in 0..<4 { _ = queue.add(Request(url: server.url("/ok"))) }
            queue.go()
            var statuses: [Int] = []
            for await result in results {
                statuses.append(try result.result.get().status.code)
                if statuses.count == 4 { break }
            }
            #expect(statuses == [200, 200, 200, 200])
            #expect(recorder.names.withLock { $0 } == Array(repeating: "asi-loop-0", count: 4))
        }
        try await transport.shutdown()
    }

    /// A queue that runs several requests at once keeps the loop busy, so its workers run there from the start, even
    /// with nothing else in flight; a queue of width 1 is a lone request and stays off the loop (decision 0035's second
    /// addendum).
    @Test(arguments: [(2, true), (1, false)])
    func aWideQueueRunsOnTheLoopThreadEvenWhenNothingElseIsInFlight(width: Int, onLoop: Bool) async throws {
        let (server, transport, client, recorder) = try Self.setUp()
        defer { server.shutdown() }
        #expect(transport.preferredTaskExecutor == nil)
        #expect(transport.workerTaskExecutor != nil, "offered while idle")
        let queue = RequestQueue(client: client, configuration: .init(maxConcurrentRequests: width))
        // Only workers on the loop wake their reader through the hand-off; from elsewhere it would be a detour.
        #expect((queue.resultsHandOff != nil) == onLoop)
        let results = queue.results  // before go(), to see every result
        for _ in 0..<3 { _ = queue.add(Request(url: server.url("/ok"))) }
        queue.go()
        var statuses: [Int] = []
        for await result in results { statuses.append(try result.result.get().status.code) }
        #expect(statuses == [200, 200, 200])
        let names = recorder.names.withLock { $0 }
        #expect(names.count == 3)
        #expect(names.allSatisfy { ($0 == "asi-loop-0") == onLoop }, "\(names)")
        try await transport.shutdown()
    }

    @Test func moreThanOneLoopOffersNoWorkerExecutor() async throws {
        let transport = POSIXTransport(configuration: .init(loopCount: 2))
        #expect(transport.workerTaskExecutor == nil)
        try await transport.shutdown()
    }
}
