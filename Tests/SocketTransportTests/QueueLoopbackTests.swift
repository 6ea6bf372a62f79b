import Dispatch
import FoundationEssentials
import Glibc
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import Synchronization
import TestSupport
import Testing

/// RequestQueue over real sockets: POSIXTransport against LoopbackServer.
@Suite struct QueueLoopbackTests {
    /// Counts requests being answered at once by a server that takes a little while over each.
    /// Counts requests in the server's handler at once. The first `width` arrivals wait (up to a minute) until
    /// all of them are in, so the peak reaches the queue's width however slowly the machine schedules them;
    /// later arrivals pass straight through.
    final class Concurrency: Sendable {
        private let state = Mutex((now: 0, peak: 0, gateOpen: false))
        let width: Int

        init(width: Int) {
            self.width = width
        }

        func enter() {
            state.withLock {
                $0.now += 1
                $0.peak = max($0.peak, $0.now)
                if $0.now >= width { $0.gateOpen = true }
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while !state.withLock({ $0.gateOpen }) && ContinuousClock.now < deadline { usleep(1_000) }
        }
        func leave() { state.withLock { $0.now -= 1 } }
        var peak: Int { state.withLock { $0.peak } }
    }

    final class Lines: Sendable {
        private let storage = Mutex<[String]>([])
        func append(_ line: String) { storage.withLock { $0.append(line) } }
        var values: [String] { storage.withLock { $0 } }
    }

    @Test func widthHoldsOverRealConnections() async throws {
        let concurrency = Concurrency(width: 3)
        let server = try LoopbackServer { _ in
            concurrency.enter()
            concurrency.leave()
            return .ok("x")
        }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let queue = RequestQueue(client: Client(transport: transport), configuration: .init(maxConcurrentRequests: 3))
        // The server holds the first three until all three arrive, which may take a loaded machine a while.
        for index in 0..<12 {
            var request = Request(url: server.url("/\(index)"))
            request.options.timeout = generousTimeout
            queue.add(request)
        }
        let results = queue.results
        queue.go()
        var statuses: [Int] = []
        for await result in results { statuses.append(try result.response().status.code) }
        try await transport.shutdown()
        #expect(statuses == Array(repeating: 200, count: 12))
        #expect(concurrency.peak == 3)
        #expect(server.connectionCount <= 3)  // kept-alive connections are reused by later requests
    }

    @Test func accurateProgressWithHeadPreflightOverSockets() async throws {
        let sizes = ["/small": 1_000, "/large": 300_000, "/medium": 40_000]
        let server = try LoopbackServer { request in
            .ok(bytes: Array(repeating: 0x61, count: sizes[request.path] ?? 0))
        }
        defer { server.shutdown() }
        let sink = RecordingProgressSink()
        let transport = POSIXTransport()
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(
                maxConcurrentRequests: 2, showsAccurateProgress: true,
                progress: sink))
        for path in sizes.keys.sorted() { queue.add(Request(url: server.url(path))) }
        queue.go()
        await queue.waitUntilFinished()
        try await transport.shutdown()

        let methods = server.requests.map(\.method)
        #expect(methods == ["HEAD", "HEAD", "HEAD", "GET", "GET", "GET"])
        let totals = sink.events(.download).filter(\.isAggregate)
        let moving = totals.filter { $0.completedBytes > 0 }
        #expect(moving.allSatisfy { $0.expectedBytes == 341_000 })
        let fractions = totals.compactMap(\.fractionCompleted)
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(fractions.last == 1.0)
        #expect(queue.downloadProgress == 1.0)
        let perRequest = sink.events(.download).filter { !$0.isAggregate }
        #expect(perRequest.map(\.byteDelta).reduce(0, +) == 341_000)
    }

    @Test func anUploadResentAfterAChallengeTakesItsProgressBack() async throws {
        let server = try LoopbackServer { request in
            guard request.header("Authorization") == "Basic YWxpY2U6d29uZGVybGFuZA==" else {
                return .status(401, headers: [("WWW-Authenticate", "Basic realm=\"r\"")], body: Array("no".utf8))
            }
            return .ok("stored")
        }
        defer { server.shutdown() }
        let own = RecordingProgressSink()
        let total = RecordingProgressSink()
        let transport = POSIXTransport()
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(showsAccurateProgress: true, progress: total))
        var request = Request(url: server.url("/upload"), method: .put)
        request.body = .bytes(Array(repeating: 0x62, count: 200_000))
        request.options.credential = Credential(user: "alice", password: "wonderland")
        request.options.progress = own
        queue.add(request)
        queue.go()
        await queue.waitUntilFinished()
        try await transport.shutdown()

        #expect(server.requests.count == 2)
        let upload = own.events(.upload)
        #expect(upload.contains { $0.byteDelta == -200_000 })  // the first attempt's bytes are taken back
        #expect(upload.map(\.byteDelta).reduce(0, +) == 200_000)
        #expect(upload.map(\.sizeIncrement).reduce(0, +) == 200_000)
        let totals = total.events(.upload).filter(\.isAggregate)
        #expect(totals.last?.completedBytes == 200_000 && totals.last?.expectedBytes == 200_000)
        #expect(queue.uploadProgress == 1.0)
    }

    @Test func aConnectionFailureCancelsTheRestAndFinishesOnce() async throws {
        let server = try LoopbackServer { request in
            request.path == "/broken" ? .closeWithoutResponse : .ok("fine")
        }
        defer { server.shutdown() }
        let log = Lines()
        let executor = DispatchQueue(label: "test.queue.loopback")
        let transport = POSIXTransport()
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 1),
            callbacks: QueueCallbacks(
                requestFinished: { request, _ in log.append("finished \(request.url.path())") },
                requestFailed: { request, error in log.append("failed \(request.url.path()) \(error.code)") },
                queueFinished: { log.append("drained") }),
            on: executor)
        for path in ["/ok", "/broken", "/never1", "/never2"] { queue.add(Request(url: server.url(path))) }
        queue.go()
        await queue.waitUntilFinished()
        await withCheckedContinuation { continuation in executor.async { continuation.resume() } }
        try await transport.shutdown()
        #expect(log.values.first == "finished /ok")
        #expect(log.values.dropFirst().first?.hasPrefix("failed /broken") == true)
        #expect(log.values.suffix(3) == ["failed /never1 cancelled", "failed /never2 cancelled", "drained"])
        #expect(!server.requests.contains { $0.path.hasPrefix("/never") })
    }

    /// A callback executor that holds every job until the test releases it, then runs them in order on a serial
    /// queue; jobs enqueued later run after them.
    final class HeldExecutor: CallbackExecutor {
        private let state = Mutex<(isHeld: Bool, jobs: [@Sendable () -> Void])>((true, []))
        private let queue = DispatchQueue(label: "test.queue.held")

        func enqueue(_ work: @escaping @Sendable () -> Void) {
            state.withLock { state in
                if state.isHeld { state.jobs.append(work) } else { queue.async(execute: work) }
            }
        }

        func release() {
            state.withLock { state in
                let jobs = state.jobs
                state = (false, [])
                queue.async { for job in jobs { job() } }
            }
        }
    }

    /// A queue of three requests over loopback whose callbacks (the requests' own and the queue's) log to `log`.
    static func loggingQueue(
        _ server: LoopbackServer, _ transport: POSIXTransport, _ log: Lines, on executor: HeldExecutor
    ) -> RequestQueue {
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 2),
            callbacks: QueueCallbacks(
                requestFinished: { request, _ in log.append("queue finished \(request.url.path())") },
                queueFinished: { log.append("drained") }),
            on: executor)
        for path in ["/a", "/b", "/c"] {
            var request = Request(url: server.url(path))
            request.options.timeout = generousTimeout
            queue.add(request, callbacks: RequestCallbacks(finished: { _ in log.append("own finished \(path)") }))
        }
        return queue
    }

    @Test func waitUntilFinishedReturnsAfterEveryCallbackHasRun() async throws {
        let server = try LoopbackServer { _ in .ok("fine") }
        defer { server.shutdown() }
        let log = Lines()
        let executor = HeldExecutor()
        let transport = POSIXTransport()
        let queue = Self.loggingQueue(server, transport, log, on: executor)
        // The callbacks run only once every request is over (and a little later, so that a wait that returned at
        // the drain would have seen none of them).
        let releaser = Task {
            _ = await eventually { queue.requestCount == 0 }
            try? await Task.sleep(for: .milliseconds(50))
            executor.release()
        }
        queue.go()
        await queue.waitUntilFinished()
        let seen = log.values
        await releaser.value
        try await transport.shutdown()
        #expect(seen.count == 7)
        #expect(seen.filter { $0.hasPrefix("own finished") }.count == 3)
        #expect(seen.filter { $0.hasPrefix("queue finished") }.count == 3)
        #expect(seen.last == "drained")
    }

    @Test func waitUntilFinishedOnADrainedQueueWaitsForItsQueuedCallbacks() async throws {
        let server = try LoopbackServer { _ in .ok("fine") }
        defer { server.shutdown() }
        let log = Lines()
        let executor = HeldExecutor()
        let transport = POSIXTransport()
        let queue = Self.loggingQueue(server, transport, log, on: executor)
        queue.go()
        #expect(await eventually { queue.requestCount == 0 })  // drained; every callback is still held
        let waiter = Task {
            await queue.waitUntilFinished()
            return log.values
        }
        try await Task.sleep(for: .milliseconds(50))  // gives a wait that ignores the callbacks time to return
        executor.release()
        let seen = await waiter.value
        try await transport.shutdown()
        #expect(seen.count == 7)
        #expect(seen.last == "drained")
        await queue.waitUntilFinished()  // idle and quiet: returns at once
    }
}
