/// What every transport's low-speed check shares: how many bytes a window must move, and the error a window below
/// that ends the transfer with, so HTTP/1.1 and HTTP/2 judge a ``LowSpeedLimit`` alike and say so in the same words.
extension LowSpeedLimit {
    /// The bytes one window must move: ``bytesPerSecond`` × ``duration``, rounded up (at least 1).
    package var windowShare: Int {
        let share = Double(bytesPerSecond) * Double(Self.nanoseconds(duration)) / 1e9
        return Int(min(share.rounded(.up), Double(Int.max / 2)))
    }

    /// The error a window below its share ends the transfer with: `timedOut` (`asi` exit 28).
    package var failure: ClientError {
        let nanoseconds = Self.nanoseconds(duration)
        let window =
            nanoseconds % 1_000_000_000 == 0 ? "\(nanoseconds / 1_000_000_000) s" : "\(nanoseconds / 1_000_000) ms"
        return ClientError(
            .timedOut, stage: .transport,
            message: "The transfer was slower than \(bytesPerSecond) bytes per second for \(window)")
    }

    /// A window's length in nanoseconds, at least 1 (`Int64.max` past what it can hold).
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 1 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflow2) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow || overflow2 ? .max : max(1, sum)
    }
}
