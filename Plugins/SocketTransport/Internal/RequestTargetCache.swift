import FoundationEssentials
import Synchronization

/// The last URL a transport took apart, with its ``RequestTarget``.
///
/// Clients send the same URL again and again (a poll, a queue of one endpoint, the benchmarks' rows), and taking a
/// URL apart is string work on every request: the scheme and host copied out of the URL, the host checked for case,
/// the port printed into the `Host` value, the origin form built. That was about a tenth of a sequential request's
/// user time (decision 0041's addendum). One entry keyed by the URL's absolute string keeps it to a comparison,
/// which is a pointer check when the caller reuses its `URL`.
final class RequestTargetCache: Sendable {
    private let last = Mutex<(url: String, target: RequestTarget)?>(nil)

    init() {}

    /// The target of `url`, taken apart now unless it is the URL asked for last.
    /// - Throws: What ``RequestTarget/init(url:)`` throws.
    func target(for url: URL) throws -> RequestTarget {
        let key = url.absoluteString
        if let hit = last.withLock({ last in last.flatMap { $0.url == key ? $0.target : nil } }) { return hit }
        let target = try RequestTarget(url: url)
        last.withLock { $0 = (key, target) }
        return target
    }
}
