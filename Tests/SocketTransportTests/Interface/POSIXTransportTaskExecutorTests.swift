import HTTPCore
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// ``POSIXTransport/taskExecutor``: tasks that prefer it run on the loop thread, and requests, timeouts,
/// cancellation and shutdown behave as without it.
@Suite struct POSIXTransportTaskExecutorTests {
    /// The current thread's name, from `/proc/thread-self/comm`.
    static func threadName() -> String {
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        guard fd >= 0 else { return "?" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(fd, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingSuffix("\n")
    }

    @Test func sequentialRequestsRunOnTheLoopThreadAndShareOneConnection() async throws {
        let server = try LoopbackServer { request in .ok(request.path) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let names = try await withTaskExecutorPreference(transport.taskExecutor) {
            var names: Set<String> = []
            for index in 0..<20 {
                let (_, body) = try await fetch(transport, testRequest(server.url("/\(index)")))
                #expect(body == Array("/\(index)".utf8))
                names.insert(Self.threadName())
            }
            return names
        }
        #expect(names == ["asi-loop-0"])
        #expect(server.connectionCount == 1)
    }

    @Test func concurrentRequestsInAGroupAllComplete() async throws {
        let server = try LoopbackServer { request in .slowBody(Array(request.path.utf8), firstPart: 1,
                                                                pause: .milliseconds(5)) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let bodies = try await withTaskExecutorPreference(transport.taskExecutor) {
            try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for index in 0..<16 {
                    group.addTask { try await fetch(transport, testRequest(server.url("/c\(index)"))).1 }
                }
                return try await group.reduce(into: Set<[UInt8]>()) { $0.insert($1) }
            }
        }
        #expect(bodies == Set((0..<16).map { Array("/c\($0)".utf8) }))
    }

    @Test func connectionsWatchedByAnotherLoopStillWakeTheTask() async throws {
        let server = try LoopbackServer { request in .ok(request.path) }
        defer { server.shutdown() }
        let transport = POSIXTransport(configuration: .init(loopCount: 2))
        let bodies = try await withTaskExecutorPreference(transport.taskExecutor) {
            try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for index in 0..<4 {
                    group.addTask { try await fetch(transport, testRequest(server.url("/l\(index)"))).1 }
                }
                return try await group.reduce(into: Set<[UInt8]>()) { $0.insert($1) }
            }
        }
        #expect(bodies == Set((0..<4).map { Array("/l\($0)".utf8) }))
        #expect(transport.core.loops.startedLoopCount == 2)
    }

    @Test func inactivityTimeoutFiresForATaskOnTheLoop() async throws {
        let server = try LoopbackServer { _ in .stall }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        _ = await withTaskExecutorPreference(transport.taskExecutor) {
            await expectClientError(.timedOut) {
                _ = try await fetch(transport, testRequest(server.url("/s"), timeout: .milliseconds(200)))
            }
        }
    }

    // The stalled requests below get a long inactivity timeout: on a busy machine the cancellation or the shutdown
    // may take seconds to arrive, and a timeout firing first would hide what the test is about.
    @Test func cancellationReachesATaskOnTheLoop() async throws {
        let server = try LoopbackServer { _ in .stall }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let task = Task(executorPreference: transport.taskExecutor) {
            try await fetch(transport, testRequest(server.url("/s"), timeout: .seconds(300)))
        }
        #expect(await eventually { server.requests.count == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    @Test func shutdownFailsAWaitingTaskAndLaterJobsStillRun() async throws {
        let server = try LoopbackServer { _ in .stall }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let executor = transport.taskExecutor
        let task = Task(executorPreference: executor) {
            try await fetch(transport, testRequest(server.url("/s"), timeout: .seconds(300)))
        }
        #expect(await eventually { server.requests.count == 1 })
        try await transport.shutdown()
        await expectClientError(.connectFailed) { _ = try await task.value }
        // The loop has stopped: a task that still prefers it runs on the global executor and fails cleanly.
        let late = await withTaskExecutorPreference(executor) { () async -> Bool in
            do {
                _ = try await fetch(transport, testRequest(server.url("/late")))
                return false
            } catch {
                return (error as? ClientError)?.code == .connectFailed
            }
        }
        #expect(late)
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
