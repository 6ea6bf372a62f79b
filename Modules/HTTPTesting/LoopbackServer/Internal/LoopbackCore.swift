import Glibc
import HTTPCore
import Synchronization

/// The shared part of a ``LoopbackServer``: the listener, the stop pipe, and the record of connections and
/// requests. Its threads hold it (never the public server), so the server's `deinit` can shut it down.
final class LoopbackCore: Sendable {
    /// Everything the threads share; guarded by ``state``.
    struct State {
        var stopped = false
        var connectionCount = 0
        var requests: [RecordedRequest] = []
        /// Open connections by index; a descriptor leaves this map (under the lock) before it is closed.
        var openSockets: [Int: Int32] = [:]
        var threads: [pthread_t] = []
    }

    let listener: Int32
    /// Becomes readable, and stays readable, once shutdown starts; every wait in the server watches it.
    let stopReader: Int32
    let stopWriter: Int32
    let handler: @Sendable (RecordedRequest) -> LoopbackResponse
    let sendsContinue: Bool
    let state = Mutex(State())

    init(
        listener: Int32, sendsContinue: Bool, handler: @escaping @Sendable (RecordedRequest) -> LoopbackResponse
    )
        throws
    {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            throw ClientError(
                .internalError, message: "LoopbackServer cannot make its stop pipe",
                underlying: SyscallError.last("pipe"))
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.listener = listener
        self.stopReader = pipeEnds[0]
        self.stopWriter = pipeEnds[1]
        self.sendsContinue = sendsContinue
        self.handler = handler
    }

    deinit {
        _ = close(stopReader)
        _ = close(stopWriter)
    }

    /// Starts the accept thread.
    func start() throws {
        let thread = try LoopbackThread.start { [self] in acceptLoop() }
        state.withLock { $0.threads.append(thread) }
    }

    private func acceptLoop() {
        while LoopbackSocket.wait(readable: listener, stop: stopReader, timeoutMilliseconds: -1) == .readable {
            guard let fd = LoopbackSocket.accept(listener) else {
                // For example EMFILE: back off briefly instead of spinning on a listener that stays readable.
                _ = LoopbackSocket.wait(readable: -1, stop: stopReader, timeoutMilliseconds: 10)
                continue
            }
            let served = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                let index = state.connectionCount
                guard
                    let thread = try? LoopbackThread.start({ [self] in
                        LoopbackConnection(core: self, fd: fd, index: index).run()
                    })
                else { return false }
                state.connectionCount += 1
                state.openSockets[index] = fd
                state.threads.append(thread)
                return true
            }
            if !served { _ = close(fd) }
        }
    }

    /// A copy of the shared state, for the public read-only properties.
    var snapshot: State { state.withLock { $0 } }

    /// Records a request before its handler runs.
    func record(_ request: RecordedRequest) {
        state.withLock { $0.requests.append(request) }
    }

    /// Closes a connection's descriptor after taking it out of the open set.
    func closeConnection(_ index: Int, fd: Int32) {
        state.withLock { _ = $0.openSockets.removeValue(forKey: index) }
        _ = Glibc.close(fd)
    }

    /// Takes a connection out of the open set without closing it (its thread is about to linger, then close).
    func forget(connection index: Int) {
        state.withLock { _ = $0.openSockets.removeValue(forKey: index) }
    }

    /// Waits for `duration` unless shutdown starts first.
    /// - Returns: `false` when shutdown interrupted the wait.
    func sleep(_ duration: Duration) -> Bool {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, seconds > 0 || attoseconds > 0 else { return true }
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        let timeout = Int32(clamping: milliseconds)
        return LoopbackSocket.wait(readable: -1, stop: stopReader, timeoutMilliseconds: timeout) == .timedOut
    }

    /// Closes the listener and every connection, ends the waits, and joins every thread. Idempotent.
    func shutdown() {
        let threads = state.withLock { state -> [pthread_t]? in
            guard !state.stopped else { return nil }
            state.stopped = true
            // Wakes threads blocked in send; the descriptors stay valid because only their owners close them.
            for fd in state.openSockets.values { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
            defer { state.threads = [] }
            return state.threads
        }
        guard let threads else { return }
        var byte: UInt8 = 1
        _ = write(stopWriter, &byte, 1)
        for thread in threads { LoopbackThread.join(thread) }
        _ = Glibc.close(listener)
    }
}
