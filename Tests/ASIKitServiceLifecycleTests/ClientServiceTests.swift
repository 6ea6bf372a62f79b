import ASIKitServiceLifecycle
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import UnixSignals

#if canImport(Glibc)
import Glibc
#endif

/// A plug-in with background work: `run()` says it started and works until it is cancelled; the log shows the order
/// of the start, the end of the work and the shutdown.
final class LifecycleProbe: Middleware {
    let log = Mutex<[String]>([])
    let started: AsyncStream<Void>
    private let startedContinuation: AsyncStream<Void>.Continuation

    init() {
        (started, startedContinuation) = AsyncStream<Void>.makeStream()
    }

    func intercept(
        _ request: Request, context: RequestContext,
        next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        try await next(request, context)
    }

    func run() async throws {
        log.withLock { $0.append("run started") }
        startedContinuation.yield()
        let (never, continuation) = AsyncStream<Never>.makeStream()
        defer { continuation.finish() }
        for await _ in never {}
        log.withLock { $0.append("run ended") }
    }

    func shutdown() async throws {
        log.withLock { $0.append("shutdown") }
    }
}

/// Fails the test when `operation` has not finished after a generous deadline, instead of hanging the run.
func finishes(within seconds: Int, _ operation: @escaping @Sendable () async throws -> Void) async throws -> Bool {
    try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
            try await operation()
            return true
        }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return false
        }
        let first = try await group.next() ?? false
        group.cancelAll()
        return first
    }
}

@Suite struct ClientServiceTests {
    @Test func aGracefulShutdownSignalEndsTheWorkThenShutsTheClientDown() async throws {
        let probe = LifecycleProbe()
        let client = Client(transport: ScriptedTransport.ok, middleware: [probe])
        let group = ServiceGroup(
            services: [ClientService(client)], gracefulShutdownSignals: [.sigusr2],
            logger: Logger(label: "ClientServiceTests"))
        let running = Task { try await group.run() }
        // The group traps its signals before it starts a service, so once the plug-in runs the signal is the group's.
        for await _ in probe.started { break }
        let response = try await client.send(Request(url: URL(string: "http://example.com/")!))
        #expect(response.status == .ok)
        #expect(kill(getpid(), SIGUSR2) == 0)
        #expect(try await finishes(within: 120) { try await running.value })
        #expect(probe.log.withLock { $0 } == ["run started", "run ended", "shutdown"])
    }

    @Test func triggeringAGracefulShutdownEndsTheService() async throws {
        let probe = LifecycleProbe()
        let client = Client(transport: ScriptedTransport.ok, middleware: [probe])
        let group = ServiceGroup(services: [ClientService(client)], logger: Logger(label: "ClientServiceTests"))
        let running = Task { try await group.run() }
        for await _ in probe.started { break }
        await group.triggerGracefulShutdown()
        #expect(try await finishes(within: 120) { try await running.value })
        #expect(probe.log.withLock { $0 } == ["run started", "run ended", "shutdown"])
    }

    @Test func clientRunWaitsUntilCancelledWithoutAPlugInThatWorks() async throws {
        let client = Client(transport: ScriptedTransport.ok)
        let running = Task { try await client.run() }
        running.cancel()
        #expect(try await finishes(within: 120) { try await running.value })
        let alreadyCancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await client.run()
        }
        #expect(try await finishes(within: 120) { try await alreadyCancelled.value })
    }
}
