import ArgumentParser
import Throttle

/// The flags that limit bandwidth: curl's per-transfer `--limit-rate` and ASIHTTPRequest's budget shared by every
/// transfer of the run, `--max-bandwidth`.
struct BandwidthFlags: ParsableArguments {
    @Option(
        name: .customLong("limit-rate"),
        help: ArgumentHelp(
            "The most body bytes per second each transfer may move, as in curl (K, M, G: powers of 1024; 0: none).",
            valueName: "rate"))
    var limitRate: ByteRate?

    @Option(
        name: .customLong("max-bandwidth"),
        help: ArgumentHelp(
            "The most body bytes per second all transfers together may move (ASIKit's maxBandwidthPerSecond; "
                + "with -Z they share it).",
            valueName: "rate"))
    var maxBandwidth: ByteRate?

    /// The client's limiter: a `ThrottleLimiter` with the shared budget when either flag sets a limit, or with
    /// `-v` (which prints its average at the end); `nil` otherwise, so that nothing is metered.
    /// - Parameter verbose: Whether `-v` was given.
    /// - Returns: The limiter, or `nil`.
    /// - Throws: What `ThrottleLimiter` throws for a bad budget (never, for a parsed ``ByteRate``).
    func limiter(verbose: Bool) throws -> ThrottleLimiter? {
        guard verbose || limitRate?.limit != nil || maxBandwidth?.limit != nil else { return nil }
        return try ThrottleLimiter(bytesPerSecond: maxBandwidth?.limit)
    }
}
