import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

@Suite struct QueueProgressTests {
    /// Sizes by path: `/N` answers N bytes with a Content-Length; `/chunked/N` without one.
    static func sizedTransport() -> ScriptedTransport {
        ScriptedTransport.reportingProgress(chunk: 64) { request in
            let parts = request.url.path().split(separator: "/")
            let size = Int(parts.last ?? "") ?? 0
            return (200, [:], Array(repeating: 1, count: size), parts.first != "chunked")
        }
    }

    static func totals(_ sink: RecordingProgressSink, _ direction: TransferDirection) -> [ProgressEvent] {
        sink.events(direction).filter(\.isAggregate)
    }

    static func isMonotone(_ values: [Double]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }
    }

    @Test func simpleProgressMovesOneRequestAtATime() async throws {
        let sink = RecordingProgressSink()
        let queue = RequestQueue(
            client: Client(transport: Self.sizedTransport()),
            configuration: .init(maxConcurrentRequests: 1, progress: sink))
        for size in [100, 2_000, 30, 500] { queue.add(Request("http://a.example/\(size)")) }
        queue.go()
        await queue.waitUntilFinished()
        let fractions = Self.totals(sink, .download).compactMap(\.fractionCompleted)
        #expect(fractions.filter { $0 > 0 } == [0.25, 0.5, 0.75, 1.0])
        #expect(Self.isMonotone(fractions))
        #expect(queue.downloadProgress == 1.0 && queue.uploadProgress == 1.0)
        #expect(!Self.totals(sink, .download).contains { $0.expectedBytes != 4 && $0.completedBytes > 0 })
        // Simple mode sends no HEAD requests.
        #expect(!queue.client.transport.isHEADSent)
    }

    @Test func accurateProgressKnowsTheTotalBeforeTheFirstByte() async throws {
        let transport = Self.sizedTransport()
        let sink = RecordingProgressSink()
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(
                maxConcurrentRequests: 2, showsAccurateProgress: true,
                progress: sink))
        for size in [1_000, 250, 4_096, 10] { queue.add(Request("http://a.example/\(size)")) }
        queue.go()
        await queue.waitUntilFinished()
        let totals = Self.totals(sink, .download)
        let moving = totals.filter { $0.completedBytes > 0 }
        #expect(moving.first?.expectedBytes == 5_356)
        #expect(moving.allSatisfy { $0.expectedBytes == 5_356 })
        #expect(moving.count > 4)  // it moved with the bytes, not once per request
        let fractions = totals.compactMap(\.fractionCompleted)
        #expect(Self.isMonotone(fractions))
        #expect(fractions.last == 1.0)
        #expect(queue.downloadProgress == 1.0)
        // Every HEAD went out before the first GET.
        let methods = transport.requests.map(\.method)
        #expect(methods.prefix(4).allSatisfy { $0 == .head } && methods.suffix(4).allSatisfy { $0 == .get })
        // The requests' own events also reach the queue's sink.
        #expect(sink.events(.download).filter { !$0.isAggregate }.map(\.byteDelta).reduce(0, +) == 5_356)
    }

    @Test func headPreflightOnlyForGETsAddedBeforeGo() async throws {
        let transport = Self.sizedTransport()
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 1, showsAccurateProgress: true))
        queue.add(Request("http://a.example/early/10"))
        var post = Request("http://a.example/post/10", method: .post)
        post.body = .string("body")
        queue.add(post)
        queue.go()
        queue.add(Request("http://a.example/late/10"))
        await queue.waitUntilFinished()
        let sent = transport.requests.map { "\($0.method) \($0.url.path())" }
        #expect(sent.filter { $0.hasPrefix("HEAD") } == ["HEAD /early/10"])
        #expect(sent.first == "HEAD /early/10")
        #expect(sent.count == 4)
        #expect(queue.requestCount == 0)
    }

    @Test func aFailedPreflightStillSendsTheGETAndCountsOneUnit() async throws {
        let sized = Self.sizedTransport()
        let transport = ScriptedTransport { request, context in
            if request.method == .head, request.url.path() == "/x/100" {
                throw ClientError(.connectFailed, message: "scripted")
            }
            return try await sized.send(request, context: context)
        }
        let sink = RecordingProgressSink()
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 1, showsAccurateProgress: true, progress: sink))
        queue.add(Request("http://a.example/x/100"))
        queue.add(Request("http://a.example/z/100"))
        let results = queue.results
        queue.go()
        var statuses: [String: Int] = [:]
        for await result in results { statuses[result.request.url.path()] = try result.response().status.code }
        #expect(statuses == ["/x/100": 200, "/z/100": 200])  // neither the request nor the queue failed
        let sent = transport.requests.map { "\($0.method) \($0.url.path())" }
        #expect(sent == ["HEAD /x/100", "HEAD /z/100", "GET /x/100", "GET /z/100"])
        // /z is sized by its HEAD (100 bytes); /x, whose HEAD failed, is one unit.
        let totals = Self.totals(sink, .download)
        #expect(totals.filter { $0.completedBytes > 0 }.allSatisfy { $0.expectedBytes == 101 })
        #expect(totals.last?.completedBytes == 101 && totals.last?.expectedBytes == 101)
        #expect(queue.downloadProgress == 1.0)
    }

    @Test func aResponseWithoutContentLengthCountsAsOneUnit() async throws {
        let sink = RecordingProgressSink()
        let queue = RequestQueue(
            client: Client(transport: Self.sizedTransport()),
            configuration: .init(
                maxConcurrentRequests: 1, showsAccurateProgress: true,
                progress: sink))
        queue.add(Request("http://a.example/chunked/300"))
        queue.add(Request("http://a.example/100"))
        queue.go()
        await queue.waitUntilFinished()
        let totals = Self.totals(sink, .download)
        #expect(totals.last?.expectedBytes == 101)
        #expect(totals.last?.completedBytes == 101)
        #expect(Self.isMonotone(totals.compactMap(\.fractionCompleted)))
    }

    @Test func aRequestAddedAfterGoWithoutContentLengthCountsAsOneUnit() async throws {
        let sink = RecordingProgressSink()
        let queue = RequestQueue(
            client: Client(transport: Self.sizedTransport()),
            configuration: .init(maxConcurrentRequests: 1, showsAccurateProgress: true, progress: sink))
        queue.go()
        queue.add(Request("http://a.example/chunked/500"))
        await queue.waitUntilFinished()
        let totals = Self.totals(sink, .download)
        #expect(totals.last?.expectedBytes == 1 && totals.last?.completedBytes == 1)
        #expect(Self.isMonotone(totals.compactMap(\.fractionCompleted)))
        // The request's own events still carry its bytes and, at the end, its size.
        let own = sink.events(.download).filter { !$0.isAggregate }
        #expect(own.last?.fractionCompleted == 1.0 && own.last?.expectedBytes == 500)
    }

    @Test func accurateUploadProgressEndsAtOne() async throws {
        let sink = RecordingProgressSink()
        let queue = RequestQueue(
            client: Client(transport: Self.sizedTransport()),
            configuration: .init(
                maxConcurrentRequests: 2, showsAccurateProgress: true,
                progress: sink))
        for size in [700, 1_300, 64] {
            var request = Request("http://a.example/up/0", method: .put)
            request.body = .bytes(Array(repeating: 3, count: size))
            queue.add(request)
        }
        queue.go()
        await queue.waitUntilFinished()
        let totals = Self.totals(sink, .upload)
        #expect(totals.filter { $0.completedBytes > 0 }.allSatisfy { $0.expectedBytes == 2_064 })
        #expect(Self.isMonotone(totals.compactMap(\.fractionCompleted)))
        #expect(totals.last?.fractionCompleted == 1.0)
    }

    @Test func failedRequestsAreNotCountedAsComplete() async throws {
        let queue = RequestQueue(
            client: Client(transport: ScriptedTransport.failing(.connectFailed)),
            configuration: .init(maxConcurrentRequests: 1, showsAccurateProgress: false))
        for index in 0..<3 { queue.add(Request("http://a.example/\(index)")) }
        queue.go()
        await queue.waitUntilFinished()
        #expect(queue.downloadProgress == 0 && queue.uploadProgress == 0)
    }

    @Test func progressCountsOnlyTheRequestsThatFinished() async throws {
        let transport = ScriptedTransport { request, _ in
            if request.url.path() == "/fail" { throw ClientError(.connectFailed, message: "scripted") }
            return .text("ok")
        }
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 1, cancelsAllOnFailure: false))
        for path in ["/a", "/fail", "/b"] { queue.add(Request("http://a.example\(path)")) }
        queue.go()
        await queue.waitUntilFinished()
        #expect(queue.downloadProgress == 2.0 / 3.0 && queue.uploadProgress == 2.0 / 3.0)
    }

    @Test func aRequestsOwnSinkSeesBytesWhateverTheQueuesMode() async throws {
        let own = RecordingProgressSink()
        let queue = RequestQueue(client: Client(transport: Self.sizedTransport()))  // simple mode
        var request = Request("http://a.example/1000")
        request.options.progress = own
        queue.add(request)
        queue.go()
        await queue.waitUntilFinished()
        #expect(own.events(.download).count > 2)
        #expect(own.events(.download).map(\.byteDelta).reduce(0, +) == 1_000)
    }
}

extension Transport {
    /// Whether a recording transport saw a HEAD request.
    var isHEADSent: Bool { (self as? ScriptedTransport)?.requests.contains { $0.method == .head } ?? false }
}
