import HTTPCore
import Testing
import Throttle

/// The limiter crosses into a detached task and is used from many at once; this fails to compile if it stops
/// being Sendable.
@Suite struct ThrottleSendableTests {
    @Test func theLimiterIsUsedFromDetachedTasks() async throws {
        let limiter = try ThrottleLimiter(bytesPerSecond: nil)
        let total = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await Task.detached {
                        let transfer = BandwidthTransfer(requestID: .next(), direction: .download)
                        let granted = (try? await limiter.grant(upTo: 100, for: transfer)) ?? 0
                        limiter.settle(used: granted, granted: granted, for: transfer)
                        return granted
                    }.value
                }
            }
            return await group.reduce(0, +)
        }
        #expect(total == 800)
    }
}
