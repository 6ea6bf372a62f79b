import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

@Suite struct ProgressTests {
    @Test func deltasAndSizeIncrementsAddUpForBothDirections() async throws {
        let transport = ScriptedTransport.reportingProgress { _ in (200, [:], Array(repeating: 1, count: 457), true) }
        let requestSink = RecordingProgressSink()
        let clientSink = RecordingProgressSink()
        var request = Request("http://a.example/put", method: .put)
        request.body = .bytes(Array(repeating: 7, count: 1_000))
        request.options.progress = requestSink
        _ = try await Client(transport: transport, progress: clientSink).send(request)

        for sink in [requestSink, clientSink] {
            let upload = sink.events(.upload)
            let download = sink.events(.download)
            #expect(upload.map(\.byteDelta).reduce(0, +) == 1_000)
            #expect(upload.map(\.sizeIncrement).reduce(0, +) == 1_000)
            #expect(download.map(\.byteDelta).reduce(0, +) == 457)
            #expect(download.map(\.sizeIncrement).reduce(0, +) == 457)
            // The upload's size is announced before any byte goes out.
            #expect(upload.first?.sizeIncrement == 1_000 && upload.first?.byteDelta == 0)
            #expect(download.last?.fractionCompleted == 1.0)
            #expect(!sink.events.contains { $0.isAggregate })
        }
        #expect(requestSink.events == clientSink.events)
    }

    @Test func anUploadSentAgainAfterAChallengeTakesItsProgressBack() async throws {
        let good = "Basic " + "alice:wonderland".base64
        let transport = ScriptedTransport.reportingProgress { request in
            if request.headerFields[.authorization] == good { return (200, [:], Array("ok".utf8), true) }
            var fields = HTTPFields()
            fields[.wwwAuthenticate] = "Basic realm=\"r\""
            return (401, fields, Array("denied".utf8), true)
        }
        let sink = RecordingProgressSink()
        var request = Request("http://a.example/upload", method: .post)
        request.body = .bytes(Array(repeating: 1, count: 300))
        request.options.credential = Credential(user: "alice", password: "wonderland")
        request.options.progress = sink
        _ = try await Client(transport: transport).send(request)

        let upload = sink.events(.upload)
        #expect(upload.contains { $0.byteDelta == -300 })  // the first attempt's bytes are taken back
        #expect(upload.map(\.byteDelta).reduce(0, +) == 300)
        #expect(upload.map(\.sizeIncrement).reduce(0, +) == 300)
        let download = sink.events(.download)
        #expect(download.contains { $0.byteDelta == -6 })  // the 401's body does not count either
        #expect(download.map(\.byteDelta).reduce(0, +) == 2)
        #expect(download.map(\.sizeIncrement).reduce(0, +) == 2)
        // Running sums never go below zero.
        var running: Int64 = 0
        for event in upload {
            running += event.byteDelta
            #expect(running >= 0 && running == event.completedBytes)
        }
    }

    @Test func aRedirectTakesBackTheFirstResponsesSize() async throws {
        let transport = ScriptedTransport.reportingProgress { request in
            if request.url.path() == "/old" {
                var fields = HTTPFields()
                fields[.location] = "/new"
                return (302, fields, Array("moved".utf8), true)
            }
            return (200, [:], Array(repeating: 2, count: 250), false)  // no Content-Length
        }
        let sink = RecordingProgressSink()
        var request = Request("http://a.example/old")
        request.options.progress = sink
        _ = try await Client(transport: transport).send(request)
        let download = sink.events(.download)
        #expect(download.map(\.byteDelta).reduce(0, +) == 250)
        // Without a Content-Length the size is announced when the body ends, so the request still ends at 1.0.
        #expect(download.map(\.sizeIncrement).reduce(0, +) == 250)
        #expect(download.last?.expectedBytes == 250 && download.last?.byteDelta == 0)
        #expect(download.last?.fractionCompleted == 1.0)
        #expect(download.dropLast().allSatisfy { $0.expectedBytes == nil || $0.expectedBytes == 5 })
    }

    @Test func withoutSinksTheTransportGetsNoSink() async throws {
        let transport = ScriptedTransport { _, context in
            #expect(context.progress == nil)
            return Response(status: .ok)
        }
        _ = try await Client(transport: transport).send(Request("http://a.example/"))
    }

    @Test func fractionCompleted() {
        let id = RequestID.next()
        #expect(
            ProgressEvent(requestID: id, direction: .upload, completedBytes: 5, expectedBytes: 10)
                .fractionCompleted == 0.5)
        #expect(
            ProgressEvent(requestID: id, direction: .upload, completedBytes: 5, expectedBytes: nil)
                .fractionCompleted == nil)
        #expect(
            ProgressEvent(requestID: id, direction: .upload, completedBytes: 0, expectedBytes: 0)
                .fractionCompleted == 1)
    }
}
