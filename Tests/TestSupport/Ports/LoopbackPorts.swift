import Glibc

/// Picks free TCP ports on 127.0.0.1 for servers that must be told their port up front.
///
/// The ports come from below the kernel's ephemeral range (`net.ipv4.ip_local_port_range`), where `bind` to port 0
/// and the source ports of outgoing connections never land: a port picked here and bound by its peer a moment later
/// cannot meanwhile become another test's `LoopbackServer` port, whose clients would then meet the peer's readiness
/// probes (a parallel run once counted 17 stray connections at a SOCKS test's proxy that way). Each port is held
/// bound until all are picked, so they are distinct. Another process can still take one before the server binds it,
/// so harnesses retry with fresh ports when the server reports "Address already in use".
package enum LoopbackPorts {
    /// Returns `count` distinct ports that were free a moment ago.
    /// - Parameter count: How many ports.
    /// - Returns: The ports.
    package static func pick(_ count: Int) -> [Int] {
        guard let range = pickRange else {
            // No room below the ephemeral range: ports the kernel hands out, held until all are read.
            let held = (0..<count).map { _ in RefusingPort() }
            return held.map(\.port)
        }
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        var ports: [Int] = []
        while ports.count < count {
            let port = Int.random(in: range)
            guard !ports.contains(port), let fd = boundSocket(port: port) else { continue }
            held.append(fd)
            ports.append(port)
        }
        return ports
    }

    /// Ports from 10000 up to just below the ephemeral range, or `nil` when that leaves fewer than 1000.
    private static let pickRange: ClosedRange<Int>? = {
        var bytes = [UInt8](repeating: 0, count: 64)
        let fd = open("/proc/sys/net/ipv4/ip_local_port_range", O_RDONLY | O_CLOEXEC)
        let count = fd < 0 ? 0 : bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if fd >= 0 { close(fd) }
        let text = String(decoding: bytes[..<max(0, count)], as: UTF8.self)
        guard let low = text.split(whereSeparator: \.isWhitespace).first.flatMap({ Int($0) }), low > 11_000 else {
            return nil
        }
        return 10_000...(low - 1)
    }()

    /// A socket bound to 127.0.0.1:`port` (not listening), or `nil` when the port is taken.
    private static func boundSocket(port: Int) -> Int32? {
        loopbackSocket(port: port) { fd, address, length in bind(fd, address, length) == 0 }
    }

    /// Whether this machine has an IPv6 loopback address (`::1`) that a server can listen on.
    package static let hasIPv6Loopback: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }()

    /// Whether something accepts TCP connections on 127.0.0.1 at `port`.
    /// - Parameter port: The port.
    /// - Returns: `true` when a connect succeeds.
    package static func accepts(_ port: Int) -> Bool {
        guard let fd = connectedSocket(port: port) else { return false }
        close(fd)
        return true
    }

    /// Sends a plain `GET` to 127.0.0.1 and returns the response's status code, or `nil` when nothing answers.
    /// For readiness checks: it reads only the status line, and gives up after two seconds.
    /// - Parameters:
    ///   - port: The port.
    ///   - path: The path, such as `/get`.
    /// - Returns: The status code.
    package static func statusCode(port: Int, path: String) -> Int? {
        guard let fd = connectedSocket(port: port) else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return nil }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while head.count < 4096, !head.contains(UInt8(ascii: "\n")) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            head += buffer[..<count]
        }
        // "HTTP/1.1 200 OK": the second word.
        let words = String(decoding: head, as: UTF8.self).split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[0].hasPrefix("HTTP/") else { return nil }
        return Int(words[1])
    }

    /// A socket connected to 127.0.0.1:`port`, or `nil` when nothing accepts there. The caller closes it.
    /// - Parameter port: The port.
    /// - Returns: The connected descriptor (close-on-exec).
    package static func connectedSocket(port: Int) -> Int32? {
        loopbackSocket(port: port) { fd, address, length in connect(fd, address, length) == 0 }
    }

    /// A new close-on-exec TCP socket that `use` binds or connects to 127.0.0.1:`port`; closed and `nil` when
    /// `use` fails.
    private static func loopbackSocket(
        port: Int, _ use: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool
    ) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        address.sin_port = UInt16(port).bigEndian
        let done = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                use(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard done else {
            close(fd)
            return nil
        }
        return fd
    }
}
