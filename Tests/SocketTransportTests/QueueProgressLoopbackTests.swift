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

    @Test func cancelAllLeavesTheBytesTransferredInSimpleMode() async throws {
        let server = try LoopbackServer { request in
            request.path == "/hold" ? .stall : .ok("fine")
        }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 1, cancelsAllOnFailure: false))
        for path in ["/a", "/hold", "/c", "/d"] { queue.add(Self.request(server, path)) }
        queue.go()
        #expect(await eventually { server.requests.contains { $0.path == "/hold" } })  // /a is over, /hold runs
        #expect(queue.downloadProgress == 0.25)
        queue.cancelAll()
        await queue.waitUntilFinished()
        try await transport.shutdown()
        // One request of four finished; the cancelled ones are not counted as complete.
        #expect(queue.downloadProgress == 0.25 && queue.uploadProgress == 0.25)
        #expect(!server.requests.contains { $0.path == "/c" || $0.path == "/d" })
    }

    @Test func cancelAllLeavesTheBytesTransferredInAccurateMode() async throws {
        let hold = Array(repeating: UInt8(0x62), count: 4_000)
        let server = try LoopbackServer { request in
            switch (request.method, request.path) {
            case ("GET", "/hold"): .slowBody(hold, firstPart: 1_000, pause: .seconds(600))
            case (_, "/hold"): .ok(bytes: hold)
            case (_, "/a"): .ok(bytes: Array(repeating: 0x61, count: 1_000))
            default: .ok(bytes: Array(repeating: 0x63, count: 2_000))
            }
        }
        defer { server.shutdown() }
        let sink = RecordingProgressSink()
        let transport = POSIXTransport()
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 1, showsAccurateProgress: true, progress: sink))
        for path in ["/a", "/hold", "/c"] { queue.add(Self.request(server, path)) }
        let totals = { sink.events(.download).filter(\.isAggregate) }
        queue.go()
        // /a's 1,000 bytes and the first 1,000 of /hold's have arrived; /hold waits for the rest.
        #expect(await eventually { totals().last?.completedBytes == 2_000 })
        queue.cancelAll()
        await queue.waitUntilFinished()
        try await transport.shutdown()
        #expect(queue.downloadProgress == 2_000.0 / 7_000.0)
        #expect(totals().last?.completedBytes == 2_000 && totals().last?.expectedBytes == 7_000)
        #expect(!totals().contains { $0.fractionCompleted == 1.0 })
        #expect(!server.requests.contains { $0.method == "GET" && $0.path == "/c" })
    }

    @Test func aQueueReusedAfterCancelAllStartsItsTotalAgain() async throws {
        let server = try LoopbackServer { request in
            request.path == "/hold" ? .stall : .ok("fine")
        }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 1))
        for path in ["/hold", "/b"] { queue.add(Self.request(server, path)) }
        queue.go()
        #expect(await eventually { server.requests.contains { $0.path == "/hold" } })
        queue.cancelAll()
        await queue.waitUntilFinished()
        #expect(queue.downloadProgress == 0)
        for path in ["/c", "/d"] { queue.add(Self.request(server, path)) }
        await queue.waitUntilFinished()
        try await transport.shutdown()
        #expect(queue.downloadProgress == 1.0 && queue.uploadProgress == 1.0)
    }

    /// A queue used again after a failure (a multipart upload sending a failed part again) keeps the work already
    /// done in its total: only what the failed request never moved leaves it, so the total never falls back to 0.
    @Test func aQueueReusedAfterAFailureKeepsWhatWasDone() async throws {
        let server = try LoopbackServer { request in
            request.path == "/cut"
                ? .truncated(body: Array(repeating: 0x61, count: 500), announcedLength: 2_000) : .ok("fine")
        }
        defer { server.shutdown() }
        let sink = RecordingProgressSink()
        let transport = POSIXTransport()
        // One at a time, and a failure cancels nothing: "/a" finishes whatever the order of events under load.
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 1, cancelsAllOnFailure: false, progress: sink))
        for path in ["/a", "/cut"] { queue.add(Self.request(server, path)) }
        queue.go()
        await queue.waitUntilFinished()
        #expect(queue.downloadProgress == 0.5, "one of two requests finished")
        queue.suspend()
        queue.add(Self.request(server, "/cut-again"))
        #expect(queue.downloadProgress == 0.5, "the finished request still counts; the failed one left the total")
        let before = sink.events(.download).count
        queue.go()
        await queue.waitUntilFinished()
        try await transport.shutdown()
        #expect(queue.downloadProgress == 1.0)
        let totals = sink.events(.download).dropFirst(before).filter(\.isAggregate).compactMap(\.fractionCompleted)
        #expect(!totals.isEmpty && totals.allSatisfy { $0 >= 0.5 }, "the total fell back: \(totals)")
    }

    @Test func aClosureSinkFollowsARequestAndAQueue() async throws {
        let server = try LoopbackServer { _ in .ok(bytes: Array(repeating: 0x61, count: 50_000)) }
        defer { server.shutdown() }
        let received = Locked<(bytes: Int64, fraction: Double?)>((0, nil))
        let totals = Locked<[Double]>([])
        let transport = POSIXTransport()
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(
                showsAccurateProgress: true,
                progress: ClosureProgressSink(.download) { event in
                    if event.isAggregate, let fraction = event.fractionCompleted {
                        totals.withLock { $0.append(fraction) }
                    }
                }))
        var request = Self.request(server, "/big")
        request.options.progress = ClosureProgressSink(.download) { event in
            received.withLock { $0 = ($0.bytes + event.byteDelta, event.fractionCompleted ?? $0.fraction) }
        }
        queue.add(request)
        queue.go()
        await queue.waitUntilFinished()
        try await transport.shutdown()
        #expect(received.withLock { $0.bytes } == 50_000)
        #expect(received.withLock { $0.fraction } == 1.0)
        #expect(totals.withLock { $0.last } == 1.0)
    }

    @Test func aRequestAndAQueueEachFeedSeveralSinks() async throws {
        let sizes = ["/one": 30_000, "/two": 10_000]
        let server = try LoopbackServer { request in
            .ok(bytes: Array(repeating: 0x61, count: sizes[request.path] ?? 0))
        }
        defer { server.shutdown() }
        // The queue: a recording sink (a bar, say) and a closure (a log), in that order.
        let bar = RecordingProgressSink()
        let logged = Locked<[ProgressEvent]>([])
        var configuration = RequestQueue.Configuration(maxConcurrentRequests: 2, showsAccurateProgress: true)
        configuration.addProgressSink(bar)
        configuration.addProgressSink(ClosureProgressSink { event in logged.withLock { $0.append(event) } })
        // One request: its own recording sink and a closure that counts downloaded bytes.
        var tracked = Self.request(server, "/one")
        let own = RecordingProgressSink()
        let counted = Locked<Int64>(0)
        tracked.options.addProgressSink(own)
        tracked.options.addProgressSink(
            ClosureProgressSink(.download) { event in counted.withLock { $0 += event.byteDelta } })
        let transport = POSIXTransport()
        let queue = RequestQueue(client: Client(transport: transport), configuration: configuration)
        queue.add(tracked)
        queue.add(Self.request(server, "/two"))
        queue.go()
        await queue.waitUntilFinished()
        try await transport.shutdown()

        // Both queue sinks got every event, in the same order: the request events and the totals.
        let events = bar.events
        #expect(events == logged.withLock { $0 })
        #expect(events.filter { !$0.isAggregate }.map(\.byteDelta).reduce(0, +) == 40_000)
        #expect(events.last { $0.isAggregate && $0.direction == .download }?.completedBytes == 40_000)
        // Both of the request's sinks got its own events, and only its own.
        #expect(own.events(.download).map(\.byteDelta).reduce(0, +) == 30_000)
        #expect(!own.events.contains { $0.isAggregate })
        #expect(counted.withLock { $0 } == 30_000)
    }
}
