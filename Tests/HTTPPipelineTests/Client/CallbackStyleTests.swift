import Dispatch
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@Suite struct CallbackStyleTests {
    static func recordingCallbacks(_ log: HopRecorder, data: Bool = false) -> RequestCallbacks {
        var callbacks = RequestCallbacks(
            started: { _ in log.append("started") },
            receivedResponseHead: { head in log.append("head \(head.status.code)") },
            willRedirect: { url in log.append("redirect \(url.path())") },
            finished: { response in log.append("finished \(response.status.code) \(response.body.count)") },
            failed: { error in log.append("failed \(error.code)") })
        if data {
            callbacks.receivedData = { chunk in log.append("data \(chunk.count)") }
        }
        return callbacks
    }

    @Test func callbacksArriveInOrderOnTheExecutor() async throws {
        let transport = ScriptedTransport { request, _ in
            request.url.path() == "/a" ? .redirect(302, to: "/b") : .text("missing", status: 404)
        }
        let log = HopRecorder()
        let queue = DispatchQueue(label: "test.callbacks")
        let handle = Client(transport: transport).start(Request("http://a.example/a"),
                                                        callbacks: Self.recordingCallbacks(log), on: queue)
        await handle.wait()
        await queue.drain()
        #expect(log.values == ["started", "head 302", "redirect /b", "head 404", "finished 404 7"])
    }

    @Test func dataCallbackTakesTheBody() async throws {
        let log = HopRecorder()
        let handle = Client(transport: ScriptedTransport { _, _ in .text("hello") })
            .start(Request("http://a.example/"), callbacks: Self.recordingCallbacks(log, data: true))
        await handle.wait()
        await Client.callbackQueue.drain()
        #expect(log.values == ["started", "head 200", "data 5", "finished 200 0"])
    }

    @Test func failureIsReportedOnce() async throws {
        let log = HopRecorder()
        let handle = Client(transport: ScriptedTransport.failing(.connectFailed))
            .start(Request("http://a.example/"), callbacks: Self.recordingCallbacks(log))
        await handle.wait()
        await Client.callbackQueue.drain()
        #expect(log.values == ["started", "failed connectFailed"])
    }

    @Test func cancelReportsCancelled() async throws {
        let log = HopRecorder()
        let handle = Client(transport: Self.neverAnswers).start(Request("http://a.example/"),
                                                                callbacks: Self.recordingCallbacks(log))
        handle.cancel()
        await handle.wait()
        await Client.callbackQueue.drain()
        #expect(log.values.last == "failed cancelled")
        #expect(log.values.filter { $0.hasPrefix("failed") || $0.hasPrefix("finished") }.count == 1)
    }

    @Test func clearCallbacksAndCancelDeliversNothing() async throws {
        let log = HopRecorder()
        let handle = Client(transport: Self.neverAnswers).start(Request("http://a.example/"),
                                                                callbacks: Self.recordingCallbacks(log))
        handle.clearCallbacksAndCancel()
        await handle.wait()
        await Client.callbackQueue.drain()
        #expect(log.values.isEmpty)
    }

    @Test func invalidURLFailsWithInvalidRequest() async throws {
        let log = HopRecorder()
        let handle = Client(transport: ScriptedTransport.ok)
            .start(Request("ftp://a.example/"), callbacks: Self.recordingCallbacks(log))
        await handle.wait()
        await Client.callbackQueue.drain()
        #expect(log.values == ["failed invalidRequest"])
    }

    /// Waits until cancelled.
    static let neverAnswers = ScriptedTransport { _, _ in
        try await Task.sleep(for: .seconds(3600))
        return Response(status: .ok)
    }
}
