import FoundationEssentials
import HTTPCore
import HTTPTesting
import Logging
import Testing

@Suite struct FakesTests {
    @Test func manualClockWakesSleepersOnlyWhenAdvanced() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(10)) }
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.now.offset == .seconds(10))
    }

    @Test func manualClockSleepIsCancellable() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(10)) }
        while clock.sleeperCount == 0 { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func recordingCookieStoreConformsAndRecords() async throws {
        try await CookieStoreConformance.run { RecordingCookieStore() }
        let store = RecordingCookieStore()
        let url = URL(string: "http://a.example/")!
        try await store.store([Cookie(name: "a", value: "1", domain: "a.example")], receivedFrom: url)
        _ = try await store.cookies(for: url)
        #expect(store.calls == [.store(["a"], from: url), .lookup(url)])
    }

    @Test func scriptedProxyResolverRecords() async throws {
        let resolver = ScriptedProxyResolver.always(.http(host: "proxy.test", port: 3128), .direct)
        let url = URL(string: "http://a.example/")!
        #expect(try await resolver.routes(for: url) == [.http(host: "proxy.test", port: 3128), .direct])
        #expect(resolver.urls == [url])
    }

    @Test func scriptedTransportRecordsAndFails() async throws {
        let transport = ScriptedTransport.failing(.timedOut)
        let request = Request(url: URL(string: "http://a.example/")!)
        await #expect(throws: ClientError.self) {
            try await transport.send(request, context: RequestContext(progress: RecordingProgressSink(),
                                                                     logger: .init(label: "t")))
        }
        #expect(transport.requests.count == 1)
    }
}
