#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic time in nanoseconds, the unit of every deadline in the transport.
///
/// `UInt64.max` stands for "never". Reading the clock is a vDSO call, cheap enough for every wait.
enum NanoTime {
    /// A deadline that never comes.
    static let never = UInt64.max

    /// The monotonic clock now.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// A duration in nanoseconds: 0 for negative durations, saturating at `never`.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return never }
        let (sum, overflow2) = whole.addingReportingOverflow(UInt64(max(0, attoseconds / 1_000_000_000)))
        return overflow2 ? never : sum
    }

    /// The deadline `timeout` nanoseconds from now, or `never` when `timeout` is `never`.
    static func deadline(after timeout: UInt64) -> UInt64 {
        guard timeout != never else { return never }
        let (sum, overflow) = now().addingReportingOverflow(timeout)
        return overflow ? never : sum
    }

    /// A short text such as `300 ms` or `10 s`, for error messages.
    static func describe(_ nanoseconds: UInt64) -> String {
        if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000) s" }
        return "\(nanoseconds / 1_000_000) ms"
    }
}
