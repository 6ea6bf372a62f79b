import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@testable import TerminalProgress

/// A clock that moves only when told.
final class TestClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }
    private let current = Mutex(Instant(offset: .zero))
    var now: Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .nanoseconds(1) }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        current.withLock { $0 = max($0, deadline) }
    }
    func advance(by duration: Duration) { current.withLock { $0 = $0.advanced(by: duration) } }
}

/// Collects what a bar writes.
final class TextRecorder: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ text: String) { storage.withLock { $0.append(text) } }
    var writes: [String] { storage.withLock { $0 } }
    var text: String { writes.joined() }
}

@Suite struct TerminalProgressBarTests {
    let id = RequestID(rawValue: 7)

    func download(_ completed: Int64, of expected: Int64?, delta: Int64 = 0) -> ProgressEvent {
        ProgressEvent(
            requestID: id, direction: .download, completedBytes: completed, expectedBytes: expected,
            byteDelta: delta)
    }

    func total(_ done: Int64, of total: Int64) -> ProgressEvent {
        ProgressEvent(
            requestID: RequestID(rawValue: 1), direction: .download, completedBytes: done,
            expectedBytes: total, isAggregate: true)
    }

    @Test func plainLinesWhenNotATerminal() {
        let clock = TestClock()
        let out = TextRecorder()
        let bar = TerminalProgressBar(clock: clock, configuration: .init(isTerminal: false), output: out.append)
        bar.setLabel("file.bin", for: id)
        bar.receive(total(0, of: 4_096))
        bar.receive(download(1_024, of: 4_096, delta: 1_024))
        clock.advance(by: .milliseconds(300))
        bar.receive(total(1_024, of: 4_096))  // the first total line: none before bytes move
        clock.advance(by: .milliseconds(300))
        bar.receive(total(2_048, of: 4_096))  // too soon for another
        clock.advance(by: .seconds(1))
        bar.receive(download(4_096, of: 4_096, delta: 3_072))
        bar.receive(total(4_096, of: 4_096))
        bar.finish()
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(!out.text.contains("\u{1B}"))
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("total down [") && lines[0].contains(" 25%"))  // no line before bytes move
        #expect(lines[1].hasPrefix("file.bin down [########################] 100%  4.0 KiB / 4.0 KiB"))
        #expect(lines[1].contains("  2.5 KiB/s  ") && lines[1].hasSuffix("in 2s"))  // 4 KiB in 1.6 s
        #expect(lines[2].hasPrefix("total down [########################] 100%  4.0 KiB"))
    }

    @Test func redrawsInPlaceAtMostOncePerInterval() {
        let clock = TestClock()
        let out = TextRecorder()
        let bar = TerminalProgressBar(clock: clock, configuration: .init(isTerminal: true), output: out.append)
        for step in 1...50 {
            bar.receive(download(Int64(step) * 10, of: 10_000, delta: 10))
            clock.advance(by: .milliseconds(1))
        }
        bar.finish()
        #expect(out.writes.count == 2)  // the first event, then finish: 50 ms is under the 100 ms interval
        let second = TestClock()
        let out2 = TextRecorder()
        let bar2 = TerminalProgressBar(clock: second, configuration: .init(isTerminal: true), output: out2.append)
        for step in 1...50 {
            bar2.receive(download(Int64(step) * 10, of: 10_000, delta: 10))
            second.advance(by: .milliseconds(10))
        }
        bar2.finish()
        #expect(out2.writes.count == 6)  // every 100 ms over 500 ms, plus finish
        #expect(out2.writes[1].hasPrefix("\u{1B}[1A\r\u{1B}[J"))  // moves up over the previous frame
    }

    @Test func showsRateAndTimeLeft() {
        var board = ProgressBoard(barWidth: 10)
        let key = ProgressBoard.Key(id: id, direction: .download)
        _ = board.apply(download(0, of: 4_000), at: .zero)
        _ = board.apply(download(1_000, of: 4_000), at: .seconds(1))
        let line = board.describe(key, board.lines[key]!, now: .seconds(1))
        #expect(line == "#7 down [##--------] 25%  1000 B / 3.9 KiB  1000 B/s  ETA 3s")
        let unknown = ProgressBoard.Key(id: RequestID(rawValue: 8), direction: .upload)
        _ = board.apply(
            ProgressEvent(
                requestID: unknown.id, direction: .upload, completedBytes: 2_048,
                expectedBytes: nil), at: .seconds(1))
        #expect(board.describe(unknown, board.lines[unknown]!, now: .seconds(3)) == "#8 up 2.0 KiB  1.0 KiB/s")
        board.removeIdle(now: .seconds(4), idle: .seconds(2))
        #expect(board.lines[unknown] == nil && board.lines[key] != nil)
    }

    @Test func formatsSizesAndTimes() {
        #expect(ProgressBoard.bytes(0) == "0 B")
        #expect(ProgressBoard.bytes(1_023) == "1023 B")
        #expect(ProgressBoard.bytes(1_536) == "1.5 KiB")
        #expect(ProgressBoard.bytes(5 * 1_048_576) == "5.0 MiB")
        #expect(ProgressBoard.bytes(3_435_973_837) == "3.2 GiB")
        #expect(ProgressBoard.time(seconds: 45) == "45s")
        #expect(ProgressBoard.time(seconds: 185) == "3m05s")
        #expect(ProgressBoard.time(seconds: 7_620) == "2h07m")
    }

    @Test func drawsAQueuesRequestsAndTotal() async throws {
        let out = TextRecorder()
        let bar = TerminalProgressBar(clock: TestClock(), configuration: .init(isTerminal: false), output: out.append)
        let transport = ScriptedTransport.reportingProgress(chunk: 512) { request in
            (200, [:], Array(repeating: 1, count: Int(request.url.lastPathComponent) ?? 0), true)
        }
        let queue = RequestQueue(
            client: Client(transport: transport),
            configuration: .init(maxConcurrentRequests: 1, showsAccurateProgress: true, progress: bar))
        for size in [2_048, 1_024] { queue.add(Request("http://a.example/\(size)")) }
        queue.go()
        await queue.waitUntilFinished()
        bar.finish()
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains(" down [") && $0.contains("100%  2.0 KiB / 2.0 KiB") }.count == 1)
        #expect(lines.filter { $0.contains(" down [") && $0.contains("100%  1.0 KiB / 1.0 KiB") }.count == 1)
        #expect(lines.last?.hasPrefix("total down [########################] 100%  3.0 KiB") == true)
    }

    @Test func ignoresEventsAfterFinish() {
        let out = TextRecorder()
        let bar = TerminalProgressBar(clock: TestClock(), configuration: .init(isTerminal: false), output: out.append)
        bar.finish()
        bar.receive(download(10, of: 10, delta: 10))
        bar.finish()
        #expect(out.writes.isEmpty)
    }
}
