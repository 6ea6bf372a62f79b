public import HTTPCore
import Synchronization

/// A bandwidth limiter driven by a closure, which records every ask and settle.
///
/// The closure decides each grant (the fake clamps it to `1...wanted`); an optional second closure sees every
/// settlement. The fake has no clock: ``averageBytesPerSecond`` is whatever ``average`` is set to, 0 by default.
///
/// ```swift
/// let limiter = RecordingBandwidthLimiter(grant: { wanted, _ in min(wanted, 1_000) })
/// let client = Client(transport: .posix(), bandwidth: limiter)
/// _ = try await client.send(request)
/// #expect(limiter.settledBytes(.download) == expectedBodyLength)
/// ```
public final class RecordingBandwidthLimiter: BandwidthLimiter {
    /// Decides a grant: the bytes wanted and the transfer; may suspend and throw `CancellationError`.
    public typealias Grant = @Sendable (Int, BandwidthTransfer) async throws -> Int
    /// Sees a settlement: used, granted, transfer.
    public typealias Settle = @Sendable (Int, Int, BandwidthTransfer) -> Void

    /// One recorded call.
    public enum Call: Sendable, Hashable {
        /// A grant was asked for this many bytes (recorded before the closure runs).
        case asked(Int, BandwidthTransfer)
        /// The closure granted this many bytes (after clamping).
        case granted(Int, BandwidthTransfer)
        /// A settlement: the bytes used and the grant they settle (0 for bytes that moved without asking).
        case settled(used: Int, granted: Int, BandwidthTransfer)
    }

    private let grant: Grant
    private let onSettle: Settle?
    private let recorded = Mutex<[Call]>([])
    private let averageValue = Mutex(0)

    /// Creates a limiter.
    /// - Parameters:
    ///   - grant: Decides each grant; its answer is clamped to `1...wanted`.
    ///   - settle: Sees each settlement, if given.
    public init(grant: @escaping Grant, settle: Settle? = nil) {
        self.grant = grant
        self.onSettle = settle
    }

    /// Grants everything asked at once.
    public static var unlimited: RecordingBandwidthLimiter {
        RecordingBandwidthLimiter(grant: { wanted, _ in wanted })
    }

    /// Grants at most `size` bytes per ask, at once.
    /// - Parameter size: The largest grant, at least 1.
    /// - Returns: The limiter.
    public static func chunked(_ size: Int) -> RecordingBandwidthLimiter {
        RecordingBandwidthLimiter(grant: { wanted, _ in min(wanted, size) })
    }

    /// A fixed total of `total` bytes that never refills: asks are granted from what is left (grants still
    /// outstanding and settled use count against it, returned bytes go back), and wait, until cancelled, once
    /// nothing is left. For checking that a spent budget makes asks wait.
    /// - Parameter total: The bytes available.
    /// - Returns: The limiter.
    public static func budget(_ total: Int) -> RecordingBandwidthLimiter {
        let left = Mutex(total)
        return RecordingBandwidthLimiter(
            grant: { wanted, _ in
                while true {
                    let granted = left.withLock { left -> Int in
                        guard left > 0 else { return 0 }
                        let granted = min(wanted, left)
                        left -= granted
                        return granted
                    }
                    if granted > 0 { return granted }
                    try await Task.sleep(for: .milliseconds(2))
                }
            },
            settle: { used, granted, _ in left.withLock { $0 += granted - used } })
    }

    /// Records the ask, runs the grant closure and records its clamped answer.
    /// - Parameters:
    ///   - wanted: The bytes wanted.
    ///   - transfer: The transfer.
    /// - Returns: The closure's answer, clamped to `1...wanted`.
    /// - Throws: What the closure throws.
    public func grant(upTo wanted: Int, for transfer: BandwidthTransfer) async throws -> Int {
        recorded.withLock { $0.append(.asked(wanted, transfer)) }
        let granted = max(1, min(max(1, wanted), try await grant(wanted, transfer)))
        recorded.withLock { $0.append(.granted(granted, transfer)) }
        return granted
    }

    /// Records the settlement and passes it to the settle closure.
    /// - Parameters:
    ///   - used: The bytes that moved.
    ///   - granted: The grant settled, or 0.
    ///   - transfer: The transfer.
    public func settle(used: Int, granted: Int, for transfer: BandwidthTransfer) {
        recorded.withLock { $0.append(.settled(used: used, granted: granted, transfer)) }
        onSettle?(used, granted, transfer)
    }

    /// The value of ``average``.
    public var averageBytesPerSecond: Int { average }

    /// What ``averageBytesPerSecond`` reports; 0 until set.
    public var average: Int {
        get { averageValue.withLock { $0 } }
        set { averageValue.withLock { $0 = newValue } }
    }

    /// Every call so far, in order.
    public var calls: [Call] { recorded.withLock { $0 } }

    /// The grants in one direction, in order.
    /// - Parameter direction: Upload or download.
    /// - Returns: The granted counts.
    public func grants(_ direction: TransferDirection) -> [Int] {
        calls.compactMap {
            if case .granted(let count, let transfer) = $0, transfer.direction == direction { count } else { nil }
        }
    }

    /// How many grants were asked for in one direction, answered or not.
    /// - Parameter direction: Upload or download.
    /// - Returns: The number of asks.
    public func askCount(_ direction: TransferDirection) -> Int {
        calls.count { if case .asked(_, let transfer) = $0 { transfer.direction == direction } else { false } }
    }

    /// The settlements in one direction, in order.
    /// - Parameter direction: Upload or download.
    /// - Returns: Each settlement's used and granted bytes.
    public func settlements(_ direction: TransferDirection) -> [(used: Int, granted: Int)] {
        calls.compactMap {
            if case .settled(let used, let granted, let transfer) = $0, transfer.direction == direction {
                (used, granted)
            } else {
                nil
            }
        }
    }

    /// The bytes settled as used in one direction: with a transport that meters every body byte, the body length.
    /// - Parameter direction: Upload or download.
    /// - Returns: The sum of the used bytes.
    public func settledBytes(_ direction: TransferDirection) -> Int {
        settlements(direction).reduce(0) { $0 + $1.used }
    }

    /// The transfers seen, in order of first appearance.
    public var transfers: [BandwidthTransfer] {
        var seen: [BandwidthTransfer] = []
        for call in calls {
            let transfer: BandwidthTransfer
            switch call {
            case .asked(_, let value), .granted(_, let value), .settled(_, _, let value): transfer = value
            }
            if !seen.contains(transfer) { seen.append(transfer) }
        }
        return seen
    }
}
