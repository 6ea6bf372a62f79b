import HTTPCore
import HTTPTesting
import Synchronization
import Testing

@testable import ASICommand

/// ``ProgressMeter``'s lines against what curl 7.88 printed for the same numbers (`curl -o FILE URL 2>&1 | od -c`).
struct ProgressMeterTests {
    @Test func theFirstLineIsCurlsLineOfZeros() {
        let line = ProgressMeter<ContinuousClock>.line(.init(), elapsed: .zero, currentSpeed: 0)
        #expect(line == "\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0")
    }

    @Test func aFinishedDownloadReadsLikeCurls() {
        let counts = ProgressMeter<ContinuousClock>.Counts(downloaded: 300_000, downloadSize: 300_000)
        // 300,000 bytes in 40 ms: 7,500,000 bytes/s, 7324k.
        let line = ProgressMeter<ContinuousClock>.line(counts, elapsed: .milliseconds(40), currentSpeed: 7_500_000)
        #expect(line == "\r100  292k  100  292k    0     0  7324k      0 --:--:-- --:--:-- --:--:-- 7324k")
    }

    @Test func sizesAndTimesFitCurlsColumns() {
        typealias Meter = ProgressMeter<ContinuousClock>
        #expect(Meter.size5(99_999) == "99999")
        #expect(Meter.size5(100_000) == "  97k")
        #expect(Meter.size5(15 * 1024 * 1024 + 512 * 1024) == "15.5M")
        #expect(Meter.size5(500 * 1024 * 1024) == " 500M")
        #expect(Meter.size5(3 * 1024 * 1024 * 1024) == "3072M")
        #expect(Meter.size5(20 * 1024 * 1024 * 1024) == "20.0G")
        #expect(Meter.time8(0) == "--:--:--")
        #expect(Meter.time8(65) == " 0:01:05")
        #expect(Meter.time8(100 * 3600 + 7200) == "  4d 06h")
        #expect(Meter.percent(150_000, of: 300_000) == 50)
        #expect(Meter.percent(1, of: 3) == 33)
    }

    @Test func aSlowTransferShowsTimeLeft() {
        let counts = ProgressMeter<ContinuousClock>.Counts(downloaded: 100_000, downloadSize: 1_000_000)
        // 100,000 bytes in 10 s: 10,000 bytes/s, so 100 s in all and 90 s left.
        let line = ProgressMeter<ContinuousClock>.line(counts, elapsed: .seconds(10), currentSpeed: 10_000)
        #expect(line == "\r 10  976k   10   97k    0     0  10000      0  0:01:40  0:00:10  0:01:30 10000")
    }

    @Test func linesComeAtMostOnceASecondAndTheLastEndsTheMeter() {
        let clock = ManualClock()
        let written = Mutex<[String]>([])
        let meter = ProgressMeter(clock: clock) { text in written.withLock { $0.append(text) } }
        func event(_ bytes: Int64) -> ProgressEvent {
            ProgressEvent(
                requestID: RequestID(rawValue: 1), direction: .download, completedBytes: bytes, expectedBytes: 4096)
        }
        meter.receive(event(0))
        let zeros = "\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0"
        #expect(written.withLock { $0 } == [ProgressMeter<ManualClock>.header + zeros], "the header and a first line")
        clock.advance(by: .milliseconds(500))
        meter.receive(event(1024))
        #expect(written.withLock { $0.count } == 1, "not within the second")
        clock.advance(by: .milliseconds(500))
        meter.receive(event(2048))
        let half = "\r 50  4096   50  2048    0     0   2048      0  0:00:02  0:00:01  0:00:01  2048"
        #expect(written.withLock { $0.last } == half)
        meter.receive(event(4096))
        meter.finish()
        let whole = "\r100  4096  100  4096    0     0   4096      0  0:00:01  0:00:01 --:--:--  4096\n"
        #expect(written.withLock { $0.last } == whole, "the last line, ended")
        meter.receive(event(4096))
        meter.finish()
        #expect(written.withLock { $0.count } == 3, "nothing after the end")
    }
}
