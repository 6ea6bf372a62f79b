import HTTPCore
import Synchronization
import Testing

@testable import HTTPPipeline

/// Cancelling a request that waits for the handler, cancelling the one that asks, and a handler that sends a
/// request of its own. Every step waits for a signal (a count the gate reports), never for a time.
@Suite struct HandlerGateCancellationTests {
    static let scope = HandlerGateTests.scope
    static let credential = HandlerGateTests.credential

    /// Suspends until `condition` holds, yielding in between.
    static func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func aCancelledWaiterStopsWaitingWhileTheHandlerIsStillAsked() async throws {
        let gate = HandlerGate()
        let asked = Mutex(false)
        let release = AsyncStream<Void>.makeStream()
        let asker = Task {
            try await gate.credential(for: Self.scope, rejected: []) {
                asked.withLock { $0 = true }
                for await _ in release.stream { break }
                return Self.credential
            }
        }
        await Self.until { asked.withLock { $0 } }
        let waiter = Task { try await gate.credential(for: Self.scope, rejected: []) { nil } }
        await Self.until { gate.waiting(for: Self.scope) == 1 }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(gate.waiting(for: Self.scope) == 0)
        release.continuation.yield()
        #expect(try await asker.value == Self.credential)
    }

    @Test func waitersAskAgainWhenTheAskerIsCancelled() async throws {
        let gate = HandlerGate()
        let asked = Mutex(false)
        let never = AsyncStream<Void>.makeStream()
        let asker = Task {
            try await gate.credential(for: Self.scope, rejected: []) {
                asked.withLock { $0 = true }
                for await _ in never.stream {}  // nothing is ever yielded: ends only when cancelled
                try Task.checkCancellation()
                return nil
            }
        }
        await Self.until { asked.withLock { $0 } }
        let waiter = Task { try await gate.credential(for: Self.scope, rejected: []) { Self.credential } }
        await Self.until { gate.waiting(for: Self.scope) == 1 }
        asker.cancel()
        await #expect(throws: CancellationError.self) { try await asker.value }
        #expect(try await waiter.value == Self.credential)  // it asked itself, and did not take the cancellation
        never.continuation.finish()
    }

    @Test func aRequestTheHandlerSendsForTheSameScopeDoesNotWaitForItself() async throws {
        let gate = HandlerGate()
        let waitedForItself = Mutex(false)
        let answer = try await gate.credential(for: Self.scope, rejected: []) {
            let inner = Task { try await gate.credential(for: Self.scope, rejected: []) { Self.credential } }
            let done = Mutex(false)
            let watcher = Task {
                _ = try? await inner.value
                done.withLock { $0 = true }
            }
            await Self.until { done.withLock { $0 } || gate.waiting(for: Self.scope) == 1 }
            if !done.withLock({ $0 }) {
                waitedForItself.withLock { $0 = true }  // a deadlock without the fix: end it
                inner.cancel()
            }
            await watcher.value
            return try? await inner.value
        }
        #expect(!waitedForItself.withLock { $0 })
        #expect(answer == Self.credential)
    }
}
