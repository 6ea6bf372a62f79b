import Testing

@testable import Throttle

/// ASIHTTPRequest's measurement: one-second windows, the mean of the complete ones among the last five, and 0
/// once a whole window passed without a byte.
@Suite struct BandwidthWindowsTests {
    @Test func averageIsZeroUntilTheFirstWindowEnds() {
        var windows = BandwidthWindows()
        #expect(windows.average(at: .zero) == 0)
        windows.record(1_000, at: .milliseconds(100))
        #expect(windows.average(at: .milliseconds(900)) == 0)
        #expect(windows.average(at: .milliseconds(1_100)) == 1_000)
    }

    @Test func averageIsTheMeanOfTheLastFiveCompleteWindows() {
        var windows = BandwidthWindows()
        // Seven windows of 100, 200, ... 700 bytes; the first starts with the first bytes, at 0.5 s.
        for second in 0..<7 {
            windows.record((second + 1) * 100, at: .seconds(second) + .milliseconds(500))
        }
        // At 7 s the seventh window (6.5 s to 7.5 s) is still running: the five before it count.
        #expect(windows.average(at: .seconds(7)) == (200 + 300 + 400 + 500 + 600) / 5)
        // Once it ends, the last five.
        #expect(windows.average(at: .milliseconds(7_600)) == (300 + 400 + 500 + 600 + 700) / 5)
    }

    @Test func anIdleWindowBringsTheAverageBackToZero() {
        var windows = BandwidthWindows()
        windows.record(5_000, at: .zero)
        windows.record(5_000, at: .milliseconds(1_500))
        #expect(windows.average(at: .milliseconds(2_500)) == 5_000)
        // The window from 2 s to 3 s had no byte.
        #expect(windows.average(at: .milliseconds(3_000)) == 0)
        #expect(windows.average(at: .seconds(60)) == 0)
        // New bytes start a fresh history: the old windows are forgotten.
        windows.record(300, at: .seconds(60))
        #expect(windows.average(at: .milliseconds(61_000)) == 300)
    }

    @Test func zeroBytesDoNotStartAWindow() {
        var windows = BandwidthWindows()
        windows.record(0, at: .zero)
        #expect(windows.start == nil)
        #expect(windows.average(at: .seconds(1)) == 0)
    }
}
