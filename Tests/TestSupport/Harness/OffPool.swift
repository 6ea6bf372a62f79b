import Glibc

/// Runs blocking harness work (starting and stopping nginx or gunicorn, which sleeps and waits for ports) on a
/// thread of its own, so it never holds one of the cooperative pool's threads. CI has two cores, hence two pool
/// threads: a few peers starting at once would otherwise stall every other test's timers and I/O, and tests
/// with deadlines (timeouts, cancellation) would fail for reasons of their own.
package func offPool<T>(_ work: @escaping () throws -> T) async throws -> T {
    let work = Handoff(value: work)
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Handoff<T>, any Error>) in
        startThread {
            do {
                continuation.resume(returning: Handoff(value: try work.value()))
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }.value
}

/// Carries a value that is not `Sendable` (a peer object, or work on one) between the waiting test and the
/// harness thread. Only one side holds it at a time: the test waits while the thread runs.
package struct Handoff<Value>: @unchecked Sendable {
    package let value: Value
}

/// Starts a detached POSIX thread that runs `body`.
package func startThread(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(&thread, nil, { argument in
        Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue().body()
        return nil
    }, box)
    precondition(created == 0, "pthread_create failed: \(created)")
    pthread_detach(thread)
}

/// The closure a harness thread runs.
private final class ThreadBody: Sendable {
    package let body: @Sendable () -> Void

    package init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}

/// Starts a peer off the pool, runs `body`, and stops the peer off the pool, also when `body` throws.
/// - Parameters:
///   - start: Starts the peer and waits until it is ready.
///   - stop: Stops it.
///   - body: The test.
/// - Returns: What `body` returns.
/// - Throws: What `start` or `body` throws.
package func withPeer<Peer, Value>(
    start: @escaping () throws -> Peer,
    stop: @escaping (Peer) -> Void,
    _ body: (Peer) async throws -> Value
) async throws -> Value {
    let peer = try await offPool(start)
    do {
        let value = try await body(peer)
        _ = try? await offPool { stop(peer) }
        return value
    } catch {
        _ = try? await offPool { stop(peer) }
        throw error
    }
}
