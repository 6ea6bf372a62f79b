import HTTPCore
import HTTPTesting
import Testing

/// FanOutProgressSink and `addProgressSink(_:)` as plain values; over sockets in
/// SocketTransportTests/QueueProgressLoopbackTests.swift.
@Suite struct FanOutProgressSinkTests {
    @Test func oneSinkAddedIsStoredAsItIsWithoutAFanOut() {
        let sink = RecordingProgressSink()
        var options = RequestOptions()
        options.addProgressSink(sink)
        #expect(options.progress is RecordingProgressSink)
        #expect((options.progress as? RecordingProgressSink) === sink)
    }

    @Test func severalSinksAddedHearEveryEventInOrder() {
        let order = RecordedEvents()
        let first = RecordingProgressSink()
        let third = RecordingProgressSink()
        var options = RequestOptions()
        options.addProgressSink(first)
        options.addProgressSink(ClosureProgressSink { event in order.append(event) })
        options.addProgressSink(third)
        // A third sink joins the fan-out instead of nesting one inside another.
        #expect((options.progress as? FanOutProgressSink)?.sinks.count == 3)
        options.progress?.receive(.sampleUpload)
        options.progress?.receive(.sampleDownload)
        #expect(first.events == [.sampleUpload, .sampleDownload])
        #expect(order.values == [.sampleUpload, .sampleDownload])
        #expect(third.events == [.sampleUpload, .sampleDownload])
    }

    @Test func flattensFanOutsAndKeepsTheOrder() {
        let sinks = (0..<3).map { _ in RecordingProgressSink() }
        let fanOut = FanOutProgressSink(FanOutProgressSink(sinks[0], sinks[1]), sinks[2])
        #expect(fanOut.sinks.count == 3)
        #expect(fanOut.sinks.enumerated().allSatisfy { ($0.element as? RecordingProgressSink) === sinks[$0.offset] })
        let factory: any ProgressSink = .fanOut(sinks[0], sinks[1])
        factory.receive(.sampleDownload)
        #expect(sinks[0].events == [.sampleDownload] && sinks[1].events == [.sampleDownload])
        #expect(sinks[2].events.isEmpty)
    }

    @Test func isSendable() async {
        let sink = RecordingProgressSink()
        let fanOut = FanOutProgressSink(sink, ClosureProgressSink { _ in })
        await Task.detached { fanOut.receive(.sampleUpload) }.value
        #expect(sink.events == [.sampleUpload])
    }
}
