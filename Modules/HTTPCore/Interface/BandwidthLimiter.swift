/// Meters and limits the body bytes of every request of a client (ASIHTTPRequest's `maxBandwidthPerSecond` and
/// `averageBandwidthUsedPerSecond`; the `Throttle` plug-in).
///
/// A transport **asks** before it moves body bytes and then **settles** what actually moved:
///
/// ```swift
/// let transfer = context.bandwidthTransfer(.download)
/// let granted = try await limiter.grant(upTo: buffer.count, for: transfer)   // may wait
/// let read = try await socket.read(upTo: granted)                              // never more than granted
/// limiter.settle(used: read, granted: granted, for: transfer)                  // a short read returns the rest
/// ```
///
/// Body bytes that arrived without asking (read together with the response head by a transport that reads the
/// head without a grant; `POSIXTransport` asks for those reads too and settles the body bytes among them) are
/// settled with `granted: 0`, so every body byte counts in the budget and in the average, in both directions,
/// including the bytes read while draining a discarded body to keep its connection. Header bytes are not metered
/// (ASIHTTPRequest's rule).
///
/// ## Implementation requirements
/// - ``grant(upTo:for:)`` returns a count in `1...wanted` (`wanted` is at least 1). It may suspend while the budget
///   is spent, and must then honour task cancellation by throwing `CancellationError`. It never returns 0: a
///   limiter that would grant nothing waits instead.
/// - ``settle(used:granted:for:)`` is synchronous and never throws; it is called once for every grant (also after
///   a failed or cancelled read, with the bytes that moved, often 0) and for bytes that moved without a grant
///   (`granted == 0`). `used` may exceed `granted`: the excess is charged, and later asks wait it out. Unused bytes
///   (`granted - used`) go back to the budget.
/// - The transfer's ``BandwidthTransfer/limit`` is the request's own bytes-per-second limit
///   (``RequestOptions/maxBandwidthPerSecond``), to apply together with the shared one. Per-request state is keyed
///   by ``BandwidthTransfer/requestID``; no end-of-request call comes, so drop state a request has not touched for
///   a measurement window. A request's hops (redirects, challenges) share its ID.
/// - ``averageBytesPerSecond`` is the mean of the recent measurement windows (ASIHTTPRequest: the last five
///   one-second windows), 0 when nothing moved lately.
/// - Called concurrently from many requests: guard state with a `Mutex` and never hold it across an `await`.
/// - A transport never asks without a limiter: a client without one pays nothing for this seam.
///
/// ## Implement a custom limiter
/// ```swift
/// final class CountingLimiter: BandwidthLimiter {
///     private let total = Mutex(0)
///     func grant(upTo wanted: Int, for transfer: BandwidthTransfer) async throws -> Int {
///         try Task.checkCancellation()
///         return min(wanted, transfer.limit ?? wanted)
///     }
///     func settle(used: Int, granted: Int, for transfer: BandwidthTransfer) {
///         total.withLock { $0 += used }
///     }
///     var averageBytesPerSecond: Int { 0 }
/// }
/// ```
public protocol BandwidthLimiter: PluginLifecycle {
    /// Waits until bytes may move, then grants how many.
    /// - Parameters:
    ///   - wanted: The bytes the transport would like to move, at least 1.
    ///   - transfer: The request, direction and per-request limit the bytes belong to.
    /// - Returns: How many bytes may move now, in `1...wanted`.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func grant(upTo wanted: Int, for transfer: BandwidthTransfer) async throws -> Int

    /// Records what actually moved after a grant, or bytes that moved without one.
    /// - Parameters:
    ///   - used: The body bytes that moved, 0 or more; may exceed `granted`.
    ///   - granted: What ``grant(upTo:for:)`` returned for these bytes, or 0 when they moved without asking.
    ///   - transfer: The request, direction and per-request limit the bytes belong to.
    func settle(used: Int, granted: Int, for transfer: BandwidthTransfer)

    /// The mean bytes per second over the recent measurement windows (ASIHTTPRequest's
    /// `averageBandwidthUsedPerSecond`), both directions together; 0 when idle.
    var averageBytesPerSecond: Int { get }
}
