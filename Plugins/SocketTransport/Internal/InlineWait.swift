#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Waiting for a response by blocking briefly in `poll` on the task's own thread instead of suspending.
///
/// A suspended wait costs two thread switches: the kernel wakes the event-loop thread, which wakes a thread of
/// the cooperative pool to resume the task. When a server answers within a fraction of a millisecond (loopback,
/// a LAN, a keep-alive connection to a fast backend), blocking in `poll` for at most ``timeoutMilliseconds``
/// costs one switch, like a blocking client such as libcurl. To keep the cooperative pool free:
/// - a connection waits inline only while its recent reads had to wait less than ``threshold`` (a moving
///   average), so slow servers always get the event loop;
/// - at most ``maxConcurrent`` tasks in the process (half the cores, at least one) wait inline at a time;
/// - a wait is bounded by ``timeoutMilliseconds``; when it runs out the task falls back to the event loop.
enum InlineWait {
    /// Reads that waited longer than this on average stop waiting inline.
    static let threshold: UInt64 = 500_000
    /// The longest a thread blocks in one inline wait.
    static let timeoutMilliseconds: Int32 = 1
    /// How many tasks may wait inline at once.
    static let maxConcurrent = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) / 2)

    private static let active = Atomic<Int>(0)

    /// Blocks until `fd` is readable or the timeout passes, unless too many threads wait inline already.
    /// - Returns: `true` when the socket became readable (or failed: the next read reports it).
    static func waitUntilReadable(_ fd: Int32) -> Bool {
        guard active.add(1, ordering: .acquiring).newValue <= maxConcurrent else {
            active.subtract(1, ordering: .releasing)
            return false
        }
        defer { active.subtract(1, ordering: .releasing) }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&entry, 1, timeoutMilliseconds)
            if result < 0 && errno == EINTR { continue }
            return result > 0
        }
    }

    /// The next moving average of wait times.
    static func average(_ average: UInt64, adding sample: UInt64) -> UInt64 {
        (average &* 3 &+ min(sample, 1_000_000_000)) / 4
    }
}
