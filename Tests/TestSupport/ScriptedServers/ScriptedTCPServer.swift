import Glibc

/// A TCP server on 127.0.0.1 (port 0) that runs a script on each connection, with blocking reads and writes on a
/// thread of its own: a fault peer for protocols the `LoopbackServer` does not speak (a SOCKS proxy answering
/// garbage or a failure code, a SOCKS4a proxy that relays to a real origin, a proxy that closes after `CONNECT`).
///
/// It never reuses the transport's code: every byte is read and written here with plain system calls.
package final class ScriptedTCPServer: Sendable {
    /// The port it listens on.
    package let port: Int
    private let fd: Int32
    private let state = Locked<Counts>(Counts())

    private struct Counts: Sendable {
        var accepted = 0
        var stopped = false
        /// Whether the accept thread closed the listening socket; only it closes it, so that its `accept` never
        /// runs on a descriptor number another test's socket has taken since.
        var closed = false
    }

    /// Starts listening and accepting; each connection runs `script` on a new thread, then is closed.
    /// - Parameter script: What to do with one connection.
    package init(_ script: @escaping @Sendable (ScriptedTCPConnection) -> Void) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        precondition(fd >= 0, "socket() failed: errno \(errno)")
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0 && listen(fd, 64) == 0
            }
        }
        precondition(bound, "listening on 127.0.0.1:0 failed: errno \(errno)")
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let state = state
        startThread {
            func closeListener() {
                state.withLock { state in
                    state.closed = true
                    close(fd)
                }
            }
            while true {
                let client = accept(fd, nil, nil)
                // Close-on-exec, as the loopback server's: a peer started later must not keep the connection open.
                if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
                if client < 0 {
                    if errno == EINTR { continue }
                    closeListener()  // shut down
                    return
                }
                let stopped = state.withLock { state -> Bool in
                    state.accepted += 1
                    return state.stopped
                }
                if stopped {
                    close(client)
                    closeListener()
                    return
                }
                startThread {
                    let connection = ScriptedTCPConnection(fd: client)
                    script(connection)
                    connection.close()
                }
            }
        }
    }

    deinit {
        shutdown()
    }

    /// How many connections it accepted so far.
    package var connectionCount: Int { state.withLock { $0.accepted } }

    /// Stops accepting (the accept thread then closes the listening socket). Connections already running finish
    /// their script.
    package func shutdown() {
        let fd = fd
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            if !state.closed { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }
}

/// One accepted connection of a ``ScriptedTCPServer``: blocking reads and writes, each waiting at most five minutes
/// (a busy machine may leave the client's task unscheduled for long; a client that gives up closes, which ends
/// the wait at once).
package final class ScriptedTCPConnection: @unchecked Sendable {  // used by the one thread that runs its script
    private let fd: Int32
    private var isClosed = false

    init(fd: Int32) {
        self.fd = fd
        var timeout = timeval(tv_sec: 300, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads exactly `count` bytes; `nil` when the peer closed (or nothing came for five minutes) first.
    package func read(_ count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: max(count, 1))
        while bytes.count < count {
            let got = recv(fd, &buffer, count - bytes.count, 0)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            bytes += buffer.prefix(got)
        }
        return bytes
    }

    /// Reads up to and including a NUL byte and returns what came before it; `nil` when the peer closed first.
    package func readUntilNUL() -> [UInt8]? {
        var bytes: [UInt8] = []
        while true {
            guard let byte = read(1) else { return nil }
            if byte[0] == 0 { return bytes }
            bytes += byte
        }
    }

    /// Reads what has arrived, up to `limit` bytes; empty when the peer closed.
    package func readSome(limit: Int = 65536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let got = recv(fd, &buffer, limit, 0)
            if got < 0 && errno == EINTR { continue }
            return got > 0 ? Array(buffer.prefix(got)) : []
        }
    }

    /// Writes all of `bytes`; errors are ignored (the client may have gone).
    package func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// Connects to 127.0.0.1:`port` and copies bytes both ways until either side closes.
    /// - Returns: Whether the connection to the port could be made.
    @discardableResult
    package func relay(toPort port: Int) -> Bool {
        guard let upstream = LoopbackPorts.connectedSocket(port: port) else { return false }
        defer { Glibc.close(upstream) }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: upstream, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while poll(&fds, 2, 300_000) > 0 {
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                let from = index == 0 ? fd : upstream
                let to = index == 0 ? upstream : fd
                let got = recv(from, &buffer, buffer.count, 0)
                guard got > 0 else { return true }
                var offset = 0
                while offset < got {
                    let sent = buffer.withUnsafeBytes {
                        send(to, $0.baseAddress! + offset, got - offset, Int32(MSG_NOSIGNAL))
                    }
                    guard sent > 0 else { return true }
                    offset += sent
                }
            }
        }
        return true
    }

    /// Resets the connection (`SO_LINGER` 0, then close: the client sees `ECONNRESET`); idempotent with ``close()``.
    package func reset() {
        guard !isClosed else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    /// Closes the connection; idempotent.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }
}
