import HTTPCore
import HTTPTesting
@testable import SocketTransport
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The event loop's polling before it sleeps (``POSIXTransport/Configuration/busyPoll``, decision 0037): requests,
/// jobs and timers work while it polls, and an idle loop stops polling and sleeps.
@Suite struct EventLoopBusyPollTests {
    /// The kernel's scheduling state of a thread of this process (`R` running or runnable, `S` asleep), from
    /// `/proc/self/task/TID/stat`.
    static func state(ofThread id: Int32) -> String? {
        let fd = open("/proc/self/task/\(id)/stat", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &buffer, buffer.count)
        let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
        // "TID (comm) S ...": the state follows the last closing parenthesis.
        guard let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    @Test func anIdleLoopStopsPollingAndSleeps() async throws {
        let server = try LoopbackServer { request in .ok(request.path) }
        defer { server.shutdown() }
        let transport = POSIXTransport(configuration: .init(busyPoll: .milliseconds(20)))
        for index in 0..<20 {
            let (_, body) = try await fetch(transport, testRequest(server.url("/\(index)")))
            #expect(body == Array("/\(index)".utf8))
        }
        let loop = try #require(transport.core.loops.executorLoop())
        let id = loop.threadID.load(ordering: .relaxed)
        #expect(id > 0)
        // A polling loop yields but stays runnable (`R`); one asleep in epoll_wait is `S`.
        #expect(await eventually(within: 120) { Self.state(ofThread: id) == "S" })
        try await transport.shutdown()
    }

    @Test func jobsAndTimersRunWhileTheLoopPolls() async throws {
        let server = try LoopbackServer { request in
            request.path == "/stall" ? .stall : .slowBody(Array(request.path.utf8), firstPart: 1, pause: .milliseconds(1))
        }
        defer { server.shutdown() }
        let transport = POSIXTransport(configuration: .init(busyPoll: .milliseconds(50)))
        let bodies = try await withTaskExecutorPreference(transport.taskExecutor) {
            try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for index in 0..<64 {
                    group.addTask { try await fetch(transport, testRequest(server.url("/p\(index)"))).1 }
                }
                return try await group.reduce(into: Set<[UInt8]>()) { $0.insert($1) }
            }
        }
        #expect(bodies == Set((0..<64).map { Array("/p\($0)".utf8) }))
        _ = await withTaskExecutorPreference(transport.taskExecutor) {
            await expectClientError(.timedOut) {
                _ = try await fetch(transport, testRequest(server.url("/stall"), timeout: .milliseconds(200)))
            }
        }
        try await transport.shutdown()
    }
}
