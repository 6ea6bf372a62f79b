package import HTTPCore
import Synchronization
package import Throttle

/// Wraps a ``ThrottleLimiter`` and counts the body bytes that moved in every second since the first grant.
///
/// Each settled byte is counted at the moment its grant was given, the moment just before the `recv` or `send`
/// that moved it; a byte settled without a grant counts when it was settled. A request has one grant at a time
/// in each direction, so the grant a settlement belongs to is the last one of its transfer. Shared by the
/// throttle's tests over HTTP/1.1 and over HTTP/2.
package final class PerSecondRecorder: BandwidthLimiter {
    private struct State {
        var start: ContinuousClock.Instant?
        var grantedAt: [BandwidthTransfer: Duration] = [:]
        var moves: [(at: Duration, bytes: Int, direction: TransferDirection)] = []
    }

    /// The limiter that grants.
    package let limiter: ThrottleLimiter
    private let state = Mutex(State())

    /// Records what `limiter` grants.
    package init(_ limiter: ThrottleLimiter) {
        self.limiter = limiter
    }

    package func grant(upTo wanted: Int, for transfer: BandwidthTransfer) async throws -> Int {
        let granted = try await limiter.grant(upTo: wanted, for: transfer)
        let now = ContinuousClock.now
        state.withLock { state in
            let start = state.start ?? now
            state.start = start
            state.grantedAt[transfer] = now - start
        }
        return granted
    }

    package func settle(used: Int, granted: Int, for transfer: BandwidthTransfer) {
        limiter.settle(used: used, granted: granted, for: transfer)
        let now = ContinuousClock.now
        state.withLock { state in
            let start = state.start ?? now
            state.start = start
            let at = granted > 0 ? state.grantedAt[transfer] ?? now - start : now - start
            if used > 0 { state.moves.append((at, used, transfer.direction)) }
        }
    }

    package var averageBytesPerSecond: Int { limiter.averageBytesPerSecond }

    /// The bytes of each whole or partial second since the first grant.
    package var perSecond: [Int] {
        let moves = state.withLock { $0.moves }
        var seconds: [Int] = []
        for move in moves {
            let index = Int(move.at.components.seconds)
            if seconds.count <= index { seconds += Array(repeating: 0, count: index + 1 - seconds.count) }
            seconds[index] += move.bytes
        }
        return seconds
    }

    /// The most bytes in any one-second span that starts at a move: a sliding window, stricter than `perSecond`.
    package var busiestSecond: Int {
        let moves = state.withLock { $0.moves }.sorted { $0.at < $1.at }
        var busiest = 0
        var sum = 0
        var tail = 0
        for head in moves.indices {
            sum += moves[head].bytes
            while moves[head].at - moves[tail].at >= .seconds(1) {
                sum -= moves[tail].bytes
                tail += 1
            }
            busiest = max(busiest, sum)
        }
        return busiest
    }

    /// Every byte settled.
    package var total: Int { state.withLock { $0.moves.reduce(0) { $0 + $1.bytes } } }

    /// The bytes settled in one direction.
    package func total(_ direction: TransferDirection) -> Int {
        state.withLock { $0.moves.filter { $0.direction == direction }.reduce(0) { $0 + $1.bytes } }
    }
}
