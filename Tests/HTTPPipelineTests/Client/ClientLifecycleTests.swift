import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// `Client.run()` and `Client.shutdown()` reach every plug-in the client owns.
@Suite struct ClientLifecycleTests {
    /// A middleware that records its lifecycle calls and, in `run()`, waits for cancellation.
    final class Recorder: Middleware {
        let events = Mutex<[String]>([])
        let fails: Bool

        init(fails: Bool = false) {
            self.fails = fails
        }

        func intercept(
            _ request: Request,
            context: RequestContext,
            next: @Sendable (Request, RequestContext) async throws -> Response
        ) async throws -> Response {
            try await next(request, context)
        }

        func run() async throws {
            events.withLock { $0.append("run") }
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            events.withLock { $0.append("cancelled") }
        }

        func shutdown() async throws {
            events.withLock { $0.append("shutdown") }
            if fails { throw ClientError(.storageFailed, message: "flush failed") }
        }

        var recorded: [String] { events.withLock { $0 } }
    }

    @Test func pluginsListsEverySlotThatIsFilled() {
        let bare = Client(transport: ScriptedTransport.ok)
        #expect(bare.plugins.count == 3)  // transport, cookie jar, session credential store
        let full = Client(transport: ScriptedTransport.ok, cache: MemoryCacheStore(),
                          persistentCredentials: RecordingCredentialStore(), middleware: [Recorder()],
                          bandwidth: RecordingBandwidthLimiter.unlimited)
        #expect(full.plugins.count == 7)
    }

    @Test func runRunsEveryPluginUntilCancelledThenReturns() async throws {
        let recorder = Recorder()
        let client = Client(transport: ScriptedTransport.ok, middleware: [recorder])
        let running = Task { try await client.run() }
        var waited = 0
        while !recorder.recorded.contains("run") && waited < 60_000 {
            try await Task.sleep(for: .milliseconds(1))
            waited += 1
        }
        running.cancel()
        try await running.value  // a cancellation ends run() without an error
        #expect(recorder.recorded == ["run", "cancelled"])
    }

    @Test func runKeepsWaitingWhenNoPluginHasBackgroundWork() async throws {
        let client = Client(transport: ScriptedTransport.ok)
        let finishedFirst = await withTaskGroup(of: String.self) { group in
            group.addTask {
                try? await client.run()
                return "run"
            }
            group.addTask { "app" }
            let first = await group.next()
            group.cancelAll()
            return first
        }
        #expect(finishedFirst == "app")
    }

    @Test func shutdownReachesEveryPluginEvenWhenOneFails() async throws {
        let failing = Recorder(fails: true)
        let second = Recorder()
        let client = Client(transport: ScriptedTransport.ok, middleware: [failing, second])
        let error = await #expect(throws: ClientError.self) { try await client.shutdown() }
        #expect(error?.code == .storageFailed)
        #expect(failing.recorded == ["shutdown"])
        #expect(second.recorded == ["shutdown"])
    }
}
