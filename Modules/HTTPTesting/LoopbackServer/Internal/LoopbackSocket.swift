import Glibc
import HTTPCore

/// The socket calls the loopback server makes, with `EINTR` retried here.
///
/// Every function works on a raw descriptor; ownership (who closes it) stays with the caller.
enum LoopbackSocket {
    /// What ``wait(readable:stop:timeoutMilliseconds:)`` saw.
    enum WaitResult: Equatable {
        case readable
        case stopped
        case timedOut
    }

    /// Opens a listening TCP socket on `host` (an IPv4 or IPv6 literal), port 0.
    /// - Returns: The descriptor and the port the kernel chose.
    /// - Throws: `ClientError` with `.invalidConfiguration` for a bad address, `.connectFailed` otherwise.
    static func listen(host: String) throws -> (fd: Int32, port: Int) {
        let isIPv6 = host.contains(":")
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket", host: host) }
        do {
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if isIPv6 {
                _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
                try bindIPv6(fd, host: host)
            } else {
                try bindIPv4(fd, host: host)
            }
            guard Glibc.listen(fd, 128) == 0 else { throw failure("listen", host: host) }
            return (fd, try boundPort(fd, host: host))
        } catch {
            _ = close(fd)
            throw error
        }
    }

    private static func bindIPv4(_ fd: Int32, host: String) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw badAddress(host) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw failure("bind", host: host) }
    }

    private static func bindIPv6(_ fd: Int32, host: String) throws {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = 0
        guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { throw badAddress(host) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard result == 0 else { throw failure("bind", host: host) }
    }

    private static func boundPort(_ fd: Int32, host: String) throws -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw failure("getsockname", host: host) }
        let isIPv6 = Int32(storage.ss_family) == AF_INET6
        let port = withUnsafePointer(to: storage) { pointer -> UInt16 in
            if isIPv6 {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
            }
        }
        return Int(UInt16(bigEndian: port))
    }

    private static func badAddress(_ host: String) -> ClientError {
        ClientError(.invalidConfiguration, message: "LoopbackServer needs an IP address literal, not \(host)")
    }

    private static func failure(_ operation: String, host: String) -> ClientError {
        ClientError(
            .connectFailed, message: "LoopbackServer cannot listen on \(host)",
            underlying: SyscallError.last(operation))
    }

    /// Accepts one connection.
    /// - Returns: The new descriptor, or `nil` when `accept` failed.
    static func accept(_ listener: Int32) -> Int32? {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                return fd
            }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Waits until `fd` is readable (data, end of stream or error) or `stop` becomes readable.
    /// - Parameters:
    ///   - fd: The descriptor to watch; pass `-1` to wait only for `stop` (a sleep).
    ///   - stop: The read end of the server's stop pipe.
    ///   - timeoutMilliseconds: How long to wait; `-1` waits forever.
    /// - Returns: What happened first; `stop` wins over `fd`.
    static func wait(readable fd: Int32, stop: Int32, timeoutMilliseconds: Int32) -> WaitResult {
        var fds = [
            pollfd(fd: stop, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let result = poll(&fds, nfds_t(fd >= 0 ? 2 : 1), timeoutMilliseconds)
            if result < 0 && errno == EINTR { continue }
            if result < 0 || fds[0].revents != 0 { return .stopped }
            return result == 0 ? .timedOut : .readable
        }
    }

    /// Reads what is available into `buffer`.
    /// - Returns: The byte count; 0 at end of stream; -1 on error.
    static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Writes all of `bytes`; never raises `SIGPIPE`.
    /// - Returns: `false` when the peer is gone or the socket was shut down.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Makes the next `close` send a TCP reset instead of a FIN.
    static func setLingerZero(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }
}
