import Glibc
import HTTPCore

/// Starts and joins plain POSIX threads for the loopback server (its accept loop and one per connection).
enum LoopbackThread {
    /// Holds the closure a new thread runs; passed through `pthread_create`'s context pointer.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a thread that runs `body` once.
    /// - Parameter body: The work; the thread ends when it returns.
    /// - Returns: The thread, to pass to ``join(_:)``.
    /// - Throws: `ClientError` with `.internalError` when the system cannot start a thread.
    static func start(_ body: @escaping @Sendable () -> Void) throws -> pthread_t {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw ClientError(
                .internalError, message: "LoopbackServer cannot start a thread",
                underlying: SyscallError(errno: result, operation: "pthread_create"))
        }
        return thread
    }

    /// Waits for `thread` to end, or detaches it when it is the calling thread (which cannot join itself).
    /// - Parameter thread: A thread from ``start(_:)``, joined at most once.
    static func join(_ thread: pthread_t) {
        if pthread_equal(thread, pthread_self()) != 0 {
            _ = pthread_detach(thread)
        } else {
            _ = pthread_join(thread, nil)
        }
    }
}
