import Dispatch
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// The queue's worker tasks (Docs/Decisions/0035-queue-workers.md): requests share at most `width` tasks, and a
/// cancel reaches exactly the request it was meant for, even though its task goes on to other requests.
@Suite struct QueueWorkerTests {
    /// Records, for each request the transport gets, its path and the task that sent it; `/hold…` paths wait until
    /// their task is cancelled, then throw `CancellationError`.
    final class TaskLog: Sendable {
        private let entries = Mutex<[(path: String, task: Int)]>([])

        var transport: ScriptedTransport {
            ScriptedTransport { [self] request, _ in
                let path = request.url.path()
                let task = withUnsafeCurrentTask { $0?.hashValue } ?? 0
                entries.withLock { $0.append((path, task)) }
                if path.hasPrefix("/hold") {
                    try await Task.sleep(for: .seconds(3_600))  // ends early only when cancelled
                }
                return .text(path)
            }
        }

        var paths: [String] { entries.withLock { $0.map(\.path) } }
        func task(of path: String) -> Int? {
            entries.withLock { entries in entries.first { $0.path == path }?.task }
        }
        var distinctTasks: Int { entries.withLock { Set($0.map(\.task)).count } }

        /// Waits (polling, up to a minute) until the transport has seen `path`.
        func waitFor(_ path: String) async throws {
            var polls = 0
            while !paths.contains(path), polls < 30_000 {
                try await Task.sleep(for: .milliseconds(2))
                polls += 1
            }
            try #require(paths.contains(path), "\(path) never reached the transport")
        }
    }

    @Test func requestsShareAtMostWidthTasks() async throws {
        let log = TaskLog()
        let queue = RequestQueue(
            client: Client(transport: log.transport), configuration: .init(maxConcurrentRequests: 2))
        for index in 0..<24 { queue.add(Request("http://a.example/\(index)")) }
        let results = queue.results
        queue.go()
        var statuses: [Int] = []
        for await result in results { statuses.append(try result.response().status.code) }
        #expect(statuses == Array(repeating: 200, count: 24))
        // A task per request would have had at least three alive at once (a request's task starts the next one
        // before it ends), so three distinct tasks at least.
        #expect(log.distinctTasks <= 2, "\(log.distinctTasks) tasks sent 24 requests through a queue of width 2")
    }

    @Test func cancellingARunningRequestLeavesTheNextOneAlone() async throws {
        let log = TaskLog()
        let queue = RequestQueue(
            client: Client(transport: log.transport),
            configuration: .init(maxConcurrentRequests: 1, cancelsAllOnFailure: false))
        let held = queue.add(Request("http://a.example/hold"))
        let next = queue.add(Request("http://a.example/next"))
        let results = queue.results
        queue.go()
        try await log.waitFor("/hold")
        held.cancel()
        let outcomes = await Self.outcomes(of: results)
        await held.wait()
        await next.wait()  // a running queued request's handle has no task of its own to wait for
        #expect(outcomes["/hold"] == "cancelled")
        #expect(outcomes["/next"] == "200")
        // The cancelled request's worker retired: the next request ran on a new task.
        let heldTask = try #require(log.task(of: "/hold"))
        #expect(log.task(of: "/next") != heldTask)
    }

    @Test func aCancelThatComesAfterTheRequestEndedDoesNotReachTheNextOne() async throws {
        let log = TaskLog()
        let queue = RequestQueue(
            client: Client(transport: log.transport),
            configuration: .init(maxConcurrentRequests: 1, cancelsAllOnFailure: false))
        let first = queue.add(Request("http://a.example/first"))
        let second = queue.add(Request("http://a.example/hold-second"))
        let third = queue.add(Request("http://a.example/third"))
        let results = queue.results
        queue.go()
        try await log.waitFor("/hold-second")
        first.cancel()  // over already: nothing to cancel, and the worker now running the second must go on
        try await Task.sleep(for: .milliseconds(20))
        #expect(log.paths == ["/first", "/hold-second"])
        second.cancel()
        let outcomes = await Self.outcomes(of: results)
        await third.wait()
        #expect(outcomes == ["/first": "200", "/hold-second": "cancelled", "/third": "200"])
    }

    /// Each result's path and its status code, or its error's code.
    static func outcomes(of results: AsyncStream<QueueResult>) async -> [String: String] {
        var outcomes: [String: String] = [:]
        for await result in results {
            outcomes[result.request.url.path()] =
                (try? result.response()).map { "\($0.status.code)" }
                ?? (result.result.failureValue?.code).map { "\($0)" } ?? "?"
        }
        return outcomes
    }
}
