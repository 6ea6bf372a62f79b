import HTTPCore
import Synchronization
import Testing

/// Events gathered by a test's sinks, in order.
final class RecordedEvents: Sendable {
    private let storage = Mutex<[ProgressEvent]>([])
    func append(_ event: ProgressEvent) { storage.withLock { $0.append(event) } }
    var values: [ProgressEvent] { storage.withLock { $0 } }
}

extension ProgressEvent {
    static let sampleUpload = ProgressEvent(
        requestID: .next(), direction: .upload, completedBytes: 5, expectedBytes: 10)
    static let sampleDownload = ProgressEvent(
        requestID: .next(), direction: .download, completedBytes: 1, expectedBytes: nil)
}

/// ClosureProgressSink as a plain value; over sockets in SocketTransportTests/QueueProgressLoopbackTests.swift.
@Suite struct ClosureProgressSinkTests {
    @Test func hearsEveryEventOrOneDirection() {
        let all = RecordedEvents()
        let downloads = RecordedEvents()
        let sinks: [any ProgressSink] = [
            ClosureProgressSink { event in all.append(event) },
            ClosureProgressSink(.download) { event in downloads.append(event) },
        ]
        for sink in sinks {
            sink.receive(.sampleUpload)
            sink.receive(.sampleDownload)
        }
        #expect(all.values == [.sampleUpload, .sampleDownload])
        #expect(downloads.values == [.sampleDownload])
    }

    @Test func theLeadingDotFactoryFillsAProgressSlot() {
        let events = RecordedEvents()
        var options = RequestOptions()
        options.progress = .closure(.upload) { event in events.append(event) }
        options.progress?.receive(.sampleDownload)
        options.progress?.receive(.sampleUpload)
        #expect(events.values == [.sampleUpload])
    }

    @Test func isSendable() async {
        let events = RecordedEvents()
        let sink = ClosureProgressSink { event in events.append(event) }
        await Task.detached { sink.receive(.sampleUpload) }.value
        #expect(events.values == [.sampleUpload])
    }
}
