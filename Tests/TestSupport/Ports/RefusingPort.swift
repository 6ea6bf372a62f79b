import Glibc

/// A TCP port on 127.0.0.1 that refuses connections for as long as this value lives: a socket is bound to it but
/// never listens, so the kernel answers every connect with a reset and no other test can take the port meanwhile
/// (a port merely found free could be picked by a peer started in parallel).
package final class RefusingPort: Sendable {
    /// The port.
    package let port: Int
    private let fd: Int32

    /// Binds a socket to a free port on 127.0.0.1 without listening.
    package init() {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket() failed: errno \(errno)")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        precondition(bound, "binding 127.0.0.1:0 failed: errno \(errno)")
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(fd)
    }
}
