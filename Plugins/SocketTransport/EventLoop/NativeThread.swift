#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLinuxSystem
import HTTPCore

/// Starts detached POSIX threads for the event loops and the name resolver.
///
/// These threads block in `epoll_wait` or `getaddrinfo`, which must never happen on Swift's cooperative pool.
enum NativeThread {
    private final class Start {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Starts a detached thread that runs `body` and then ends.
    /// - Parameters:
    ///   - name: The thread's name (at most 15 bytes are kept), shown by `top -H` and debuggers.
    ///   - body: What the thread runs.
    /// - Throws: ``ClientError`` with ``ClientError/Code/internalError`` when the system refuses a new thread.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) throws {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            c_socket_transport_set_thread_name(start.name)
            start.body()
            return nil
        }, start)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            throw ClientError(.internalError, stage: .transport, message: "Cannot start the \(name) thread",
                              underlying: SyscallError(errno: result, operation: "pthread_create"))
        }
        pthread_detach(thread)
    }
}
