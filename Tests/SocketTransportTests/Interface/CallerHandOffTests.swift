import HTTPCore
import HTTPPipeline
import HTTPTesting
@testable import SocketTransport
import Synchronization
import TestSupport
import Testing

/// `POSIXTransport.handOffTaskExecutor` (decision 0037's addendum): requests that joined a busy event loop go back to
/// their callers through the loop's hand-off, which hands a round's callers to cooperative threads together. The
/// caller's code must still never run on the loop thread, and a caller that chose the loop must stay on it.
@Suite struct CallerHandOffTests {
    @Test func theHandOffIsOfferedWithOneLoopAndNotAfterShutdown() async throws {
        let transport = POSIXTransport()
        #expect(transport.handOffTaskExecutor != nil)
        try await transport.shutdown()
        #expect(transport.handOffTaskExecutor == nil)

        let spread = POSIXTransport(configuration: .init(loopCount: 2))
        #expect(spread.handOffTaskExecutor == nil, "more loops offer no executor, so no hand-off either")
        try await spread.shutdown()
    }

    @Test func manyCallersBesideABusyLoopComeBackOffTheLoop() async throws {
        let (server, transport, client, recorder) = try ClientTransportExecutorTests.setUp()
        defer { server.shutdown() }
        try await ClientTransportExecutorTests.besideAStalledRequest(server, client) {
            let after = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var names: [String] = []
                        for _ in 0..<5 {
                            let response = try await client.send(Request(url: server.url("/ok")))
                            #expect(response.text() == "fine")
                            names.append(POSIXTransportTaskExecutorTests.threadName())
                        }
                        return names
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(after.count == 40)
            #expect(after.allSatisfy { $0 != "asi-loop-0" }, "callers' code ran on the loop: \(after)")
            let names = recorder.names.withLock { $0 }
            #expect(names == Array(repeating: "asi-loop-0", count: 40), "the requests ran on the loop: \(names)")
        }
        try await transport.shutdown()
    }

    @Test func aCallerThatChoseTheLoopStaysOnIt() async throws {
        let (server, transport, client, recorder) = try ClientTransportExecutorTests.setUp()
        defer { server.shutdown() }
        try await ClientTransportExecutorTests.besideAStalledRequest(server, client) {
            let after = try await withTaskExecutorPreference(transport.taskExecutor) {
                var names: [String] = []
                for _ in 0..<3 {
                    _ = try await client.send(Request(url: server.url("/ok")))
                    names.append(POSIXTransportTaskExecutorTests.threadName())
                }
                return names
            }
            #expect(after == Array(repeating: "asi-loop-0", count: 3), "the hand-off moved the caller off: \(after)")
            #expect(recorder.names.withLock { $0 } == Array(repeating: "asi-loop-0", count: 3))
        }
        try await transport.shutdown()
    }

    @Test func aFailedRequestBesideABusyLoopThrowsOffTheLoop() async throws {
        let (server, transport, client, _) = try ClientTransportExecutorTests.setUp()
        defer { server.shutdown() }
        try await ClientTransportExecutorTests.besideAStalledRequest(server, client) {
            var request = Request(url: server.url("/stall"))
            request.options.timeout = .milliseconds(200)
            await #expect(throws: ClientError.self) { _ = try await client.send(request) }
            #expect(POSIXTransportTaskExecutorTests.threadName() != "asi-loop-0")
        }
        try await transport.shutdown()
    }
}
