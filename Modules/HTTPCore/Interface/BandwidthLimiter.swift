/// Shares a bandwidth budget between all requests (ASIHTTPRequest's `maxBandwidthPerSecond`).
///
/// ## Implementation requirements
/// Transports call ``allowance(for:direction:)`` before each socket read or write of body bytes and then
/// transfer at most the returned count. Suspend (honouring cancellation) while the budget is spent; never
/// return less than 1.
public protocol BandwidthLimiter: PluginLifecycle {
    /// Waits until bytes may move, then returns how many.
    /// - Parameters:
    ///   - wanted: The bytes the transport would like to move.
    ///   - direction: Upload or download.
    /// - Returns: How many bytes may move now, between 1 and `wanted`.
    /// - Throws: `CancellationError`.
    func allowance(for wanted: Int, direction: TransferDirection) async throws -> Int
}
