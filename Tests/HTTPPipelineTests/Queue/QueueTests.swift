import Dispatch
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@Suite struct QueueTests {
    @Test func staysSuspendedUntilGo() async throws {
        let transport = ScriptedTransport.ok
        let queue = RequestQueue(client: Client(transport: transport))
        queue.add(Request("http://a.example/1"))
        queue.add(Request("http://a.example/2"))
        try await Task.sleep(for: .milliseconds(50))
        #expect(queue.isSuspended)
        #expect(transport.requests.isEmpty)
        #expect(queue.requestCount == 2)
        queue.go()
        await queue.waitUntilFinished()
        #expect(transport.requests.count == 2)
        #expect(queue.requestCount == 0 && !queue.isSuspended)
    }

    @Test func defaultsAreASINetworkQueues() {
        let configuration = RequestQueue.Configuration()
        #expect(configuration.maxConcurrentRequests == 4)
        #expect(configuration.cancelsAllOnFailure)
        #expect(!configuration.showsAccurateProgress)
    }

    @Test func neverRunsMoreThanTheWidth() async throws {
        let gate = GateTransport()
        let queue = RequestQueue(
            client: Client(transport: gate.transport),
            configuration: .init(maxConcurrentRequests: 3))
        let paths = (0..<9).map { "/r\($0)" }
        for path in paths { queue.add(Request("http://a.example\(path)")) }
        queue.go()
        try await gate.waitForArrivals(3)
        try await Task.sleep(for: .milliseconds(30))
        #expect(gate.arrivals.sorted() == Array(paths.prefix(3)))  // the fourth waits for a free slot
        for path in paths { gate.release(path) }
        await queue.waitUntilFinished()
        #expect(gate.arrivals.count == 9)
        #expect(gate.maxInFlight == 3)
    }

    @Test func callbacksRunRequestFirstThenQueueAndQueueFinishedLast() async throws {
        let log = HopRecorder()
        let executor = DispatchQueue(label: "test.queue.order")
        let queue = RequestQueue(
            client: Client(transport: ScriptedTransport.ok),
            callbacks: loggingQueueCallbacks(log), on: executor)
        queue.add(Request("http://a.example/a"), callbacks: loggingCallbacks(log, "a"))
        queue.go()
        await queue.waitUntilFinished()
        await executor.drain()
        #expect(
            log.values == [
                "a started", "queue started /a", "a head 200", "queue head /a 200", "a finished 200",
                "queue finished /a",
                "queue drained",
            ])
    }

    @Test func aFailureCancelsTheOthersByDefault() async throws {
        let gate = GateTransport()
        let log = HopRecorder()
        let executor = DispatchQueue(label: "test.queue.fail")
        let queue = RequestQueue(
            client: Client(transport: gate.transport),
            configuration: .init(maxConcurrentRequests: 2),
            callbacks: loggingQueueCallbacks(log), on: executor)
        for path in ["/fail", "/slow", "/later1", "/later2"] { queue.add(Request("http://a.example\(path)")) }
        let results = queue.results
        queue.go()
        try await gate.waitForArrivals(2)
        gate.release("/fail")
        var outcomes: [String: String] = [:]
        for await result in results {
            outcomes[result.request.url.path()] =
                (try? result.response()).map { "\($0.status.code)" }
                ?? "\((result.result.failureValue?.code).map { "\($0)" } ?? "")"
        }
        await executor.drain()
        #expect(
            outcomes == [
                "/fail": "connectFailed", "/slow": "cancelled", "/later1": "cancelled",
                "/later2": "cancelled",
            ])
        #expect(gate.arrivals.sorted() == ["/fail", "/slow"])  // the later ones never went out
        #expect(log.values.filter { $0 == "queue drained" }.count == 1)
        #expect(log.values.last == "queue drained")
    }

    @Test func aFailureLeavesTheOthersRunningWhenTurnedOff() async throws {
        let transport = ScriptedTransport { request, _ in
            if request.url.path() == "/fail" { throw ClientError(.connectFailed, message: "scripted") }
            return .text("ok")
        }
        let log = HopRecorder()
        let executor = DispatchQueue(label: "test.queue.nocancel")
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 1, cancelsAllOnFailure: false),
            callbacks: loggingQueueCallbacks(log), on: executor)
        for path in ["/a", "/fail", "/b", "/c"] { queue.add(Request("http://a.example\(path)")) }
        queue.go()
        await queue.waitUntilFinished()
        await executor.drain()
        #expect(transport.requests.count == 4)
        #expect(log.values.filter { $0.hasPrefix("queue finished") }.count == 3)
        #expect(log.values.filter { $0.hasPrefix("queue failed") } == ["queue failed /fail connectFailed"])
        #expect(log.values.filter { $0 == "queue drained" }.count == 1)
    }

    @Test func cancellingARequestCountsAsAFailure() async throws {
        let gate = GateTransport()
        let log = HopRecorder()
        let executor = DispatchQueue(label: "test.queue.cancel")
        let queue = RequestQueue(
            client: Client(transport: gate.transport),
            configuration: .init(maxConcurrentRequests: 2),
            callbacks: loggingQueueCallbacks(log), on: executor)
        let first = queue.add(Request("http://a.example/one"))
        queue.add(Request("http://a.example/two"))
        queue.add(Request("http://a.example/three"))
        queue.go()
        try await gate.waitForArrivals(2)
        first.cancel()
        await queue.waitUntilFinished()
        await executor.drain()
        let failures = log.values.filter { $0.hasPrefix("queue failed") }.sorted()
        #expect(
            failures == [
                "queue failed /one cancelled", "queue failed /three cancelled",
                "queue failed /two cancelled",
            ])
        #expect(!gate.arrivals.contains("/three"))
    }

    @Test func cancellingAWaitingRequestFailsItWithoutSendingIt() async throws {
        let gate = GateTransport()
        let log = HopRecorder()
        let executor = DispatchQueue(label: "test.queue.cancelwaiting")
        let queue = RequestQueue(
            client: Client(transport: gate.transport),
            configuration: .init(maxConcurrentRequests: 1, cancelsAllOnFailure: false),
            callbacks: loggingQueueCallbacks(log), on: executor)
        queue.add(Request("http://a.example/running"))
        let waiting = queue.add(Request("http://a.example/waiting"), callbacks: loggingCallbacks(log, "w"))
        queue.go()
        try await gate.waitForArrivals(1)
        waiting.cancel()
        await executor.drain()
        #expect(log.values == ["queue started /running", "w failed cancelled", "queue failed /waiting cancelled"])
        gate.release("/running")
        await queue.waitUntilFinished()
        #expect(gate.arrivals == ["/running"])
    }

    @Test func cancelAllFailsEverythingAndFinishesOnce() async throws {
        let gate = GateTransport()
        let log = HopRecorder()
        let executor = DispatchQueue(label: "test.queue.cancelall")
        let queue = RequestQueue(
            client: Client(transport: gate.transport),
            configuration: .init(maxConcurrentRequests: 2, cancelsAllOnFailure: false),
            callbacks: loggingQueueCallbacks(log), on: executor)
        for index in 0..<5 { queue.add(Request("http://a.example/\(index)")) }
        queue.go()
        try await gate.waitForArrivals(2)
        queue.cancelAll()
        await queue.waitUntilFinished()
        await executor.drain()
        #expect(log.values.filter { $0.hasPrefix("queue failed") && $0.hasSuffix("cancelled") }.count == 5)
        #expect(log.values.filter { $0 == "queue drained" }.count == 1)
        #expect(log.values.last == "queue drained")
    }

    @Test func finishesOncePerDrainAndAcceptsRequestsWhileRunning() async throws {
        let log = HopRecorder()
        let executor = DispatchQueue(label: "test.queue.drain")
        let queue = RequestQueue(
            client: Client(transport: ScriptedTransport.ok),
            callbacks: loggingQueueCallbacks(log), on: executor)
        for index in 0..<10 { queue.add(Request("http://a.example/\(index)")) }
        queue.go()
        await queue.waitUntilFinished()
        await executor.drain()
        #expect(log.values.filter { $0 == "queue drained" }.count == 1)
        #expect(log.values.last == "queue drained")

        queue.add(Request("http://a.example/late"))  // a running queue needs no second go()
        await queue.waitUntilFinished()
        await executor.drain()
        #expect(log.values.filter { $0 == "queue drained" }.count == 2)
        #expect(log.values.suffix(2) == ["queue finished /late", "queue drained"])
    }

    @Test(arguments: [false, true])
    func manyRequestsRacingToTheEndFinishTheQueueOnce(cancelsAllOnFailure: Bool) async throws {
        let transport = ScriptedTransport { request, _ in
            let index = Int(request.url.lastPathComponent) ?? 0
            try await Task.sleep(for: .microseconds(50 * (index % 7)))
            if index % 37 == 36 { throw ClientError(.connectFailed, message: "scripted") }
            return .text("ok")
        }
        let log = HopRecorder()
        let executor = DispatchQueue(label: "test.queue.race")
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 8, cancelsAllOnFailure: cancelsAllOnFailure),
            callbacks: loggingQueueCallbacks(log), on: executor)
        for index in 0..<300 { queue.add(Request("http://a.example/\(index)")) }
        let results = queue.results
        queue.go()
        var count = 0
        var finished = 0
        for await result in results {
            count += 1
            if (try? result.response()) != nil { finished += 1 }
        }
        await queue.waitUntilFinished()
        await executor.drain()
        #expect(count == 300)
        #expect(log.values.filter { $0 == "queue drained" }.count == 1)
        #expect(log.values.last == "queue drained")
        let ends = log.values.filter { $0.hasPrefix("queue finished") || $0.hasPrefix("queue failed") }
        #expect(ends.count == 300)
        // Only the requests that finished count as complete; failed and cancelled ones do not.
        #expect(queue.requestCount == 0 && queue.downloadProgress == Double(finished) / 300)
        if !cancelsAllOnFailure { #expect(transport.requests.count == 300) }
    }

    @Test func droppingASuspendedQueueReleasesItsWaitingRequests() async throws {
        let transport = ScriptedTransport.ok
        var queue: RequestQueue? = RequestQueue(client: Client(transport: transport))
        let handle = queue!.add(Request("http://a.example/never"))
        let results = queue!.results
        queue = nil
        await handle.wait()  // returns instead of hanging
        var count = 0
        for await _ in results { count += 1 }
        #expect(count == 0)
        #expect(transport.requests.isEmpty)
    }

    @Test func resultsStreamEveryRequestThenEnds() async throws {
        let queue = RequestQueue(
            client: Client(
                transport: ScriptedTransport { request, _ in
                    .text(request.url.path())
                }))
        var requests: [RequestID] = []
        for index in 0..<20 {
            var request = Request("http://a.example/\(index)")
            request.tag = index
            requests.append(queue.add(request).requestID)
        }
        let results = queue.results
        queue.go()
        var tags: [Int] = []
        for await result in results {
            #expect(try result.response().text() == "/\(result.request.tag)")
            tags.append(result.request.tag)
        }
        #expect(tags.sorted() == Array(0..<20))
        // An idle, running queue ends a new sequence at once.
        var count = 0
        for await _ in queue.results { count += 1 }
        #expect(count == 0)
    }

    @Test func waitingOnTheHandleOfARequestThatHasNotStarted() async throws {
        let gate = GateTransport()
        let queue = RequestQueue(
            client: Client(transport: gate.transport),
            configuration: .init(maxConcurrentRequests: 1))
        queue.add(Request("http://a.example/first"))
        let second = queue.add(Request("http://a.example/second"))
        queue.go()
        try await gate.waitForArrivals(1)
        let done = HopRecorder()
        async let waited: Void = {
            await second.wait()
            done.append("second over")
        }()
        try await Task.sleep(for: .milliseconds(20))
        #expect(done.values.isEmpty)  // it has not even started: wait() must not return
        gate.release("/first")
        gate.release("/second")
        await waited
        #expect(done.values == ["second over"])
        #expect(gate.arrivals == ["/first", "/second"])
        await queue.waitUntilFinished()
        await second.wait()  // returns at once once over
    }

    @Test func clearedCallbacksStayQuietButTheQueueStillHears() async throws {
        let gate = GateTransport()
        let log = HopRecorder()
        let executor = DispatchQueue(label: "test.queue.clear")
        let queue = RequestQueue(
            client: Client(transport: gate.transport),
            configuration: .init(cancelsAllOnFailure: false),
            callbacks: loggingQueueCallbacks(log), on: executor)
        let handle = queue.add(Request("http://a.example/x"), callbacks: loggingCallbacks(log, "x"))
        queue.go()
        try await gate.waitForArrivals(1)
        handle.clearCallbacksAndCancel()
        await queue.waitUntilFinished()
        await executor.drain()
        #expect(!log.values.contains { $0.hasPrefix("x ") && $0 != "x started" })
        #expect(log.values.suffix(2) == ["queue failed /x cancelled", "queue drained"])
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
