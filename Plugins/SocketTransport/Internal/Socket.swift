#if canImport(Glibc)
import Glibc
#endif
import HTTPCore

/// The outcome of one non-blocking socket or TLS call.
enum IOResult {
    /// This many bytes moved (never 0).
    case bytes(Int)
    /// The peer closed its side (reads only).
    case endOfStream
    /// The call would block until the socket is ready for the given direction.
    case wouldBlock(IOHandle.Interest)
    /// The call failed for good.
    case failed(ClientError)
}

/// Thin wrappers over the socket system calls: non-blocking, `EINTR` retried, errors as values.
enum Socket {
    /// Opens a non-blocking TCP socket with `TCP_NODELAY` set.
    /// - Parameter family: `AF_INET` or `AF_INET6`.
    /// - Returns: The descriptor.
    /// - Throws: ``ClientError`` with ``ClientError/Code/connectFailed`` when the system refuses a socket.
    static func open(family: Int32) throws -> Int32 {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw ClientError(.connectFailed, stage: .transport, message: "Cannot open a socket",
                              underlying: SyscallError.last("socket"))
        }
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Starts a connect; returns 0 when connected at once, `EINPROGRESS` while it goes on, or another errno.
    static func connect(_ fd: Int32, to address: SocketAddress) -> Int32 {
        while true {
            let result = address.withSockAddr { Glibc.connect(fd, $0, $1) }
            if result == 0 { return 0 }
            if errno != EINTR { return errno }
        }
    }

    /// The result of a finished non-blocking connect (`SO_ERROR`): 0 on success.
    static func pendingError(_ fd: Int32) -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }

    /// Sends bytes without ever raising `SIGPIPE`.
    static func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> IOResult {
        while true {
            let sent = Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
            if sent >= 0 { return .bytes(sent) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock(.write)
            default: return .failed(lost(SyscallError.last("send"), sending: true))
            }
        }
    }

    /// Receives up to `count` bytes.
    static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> IOResult {
        while true {
            let received = recv(fd, buffer, count, 0)
            if received > 0 { return .bytes(received) }
            if received == 0 { return .endOfStream }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock(.read)
            default: return .failed(lost(SyscallError.last("recv"), sending: false))
            }
        }
    }

    /// Whether an idle socket has nothing to read and is still open: a one-byte `MSG_PEEK`.
    static func isQuiet(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        while true {
            let result = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if result < 0 && errno == EINTR { continue }
            return result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
    }

    /// Closes a descriptor; errors are ignored (the descriptor is gone either way on Linux).
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// The error for a connection that broke while in use: ``ClientError/Code/sendFailed`` or
    /// ``ClientError/Code/receiveFailed`` (curl's 55 and 56), by the direction that saw it.
    /// - Parameters:
    ///   - error: The failed call.
    ///   - sending: Whether a send saw the failure.
    /// - Returns: The error.
    static func lost(_ error: SyscallError, sending: Bool) -> ClientError {
        let what = error.errno == ECONNRESET ? "The connection was reset by the server"
            : error.errno == EPIPE ? "The server closed the connection" : "The connection failed"
        return ClientError(sending ? .sendFailed : .receiveFailed, stage: .transport,
                           message: what + (sending ? " while sending" : " while receiving"), underlying: error)
    }
}
