#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 socket address as `connect` takes it.
struct SocketAddress: Sendable, CustomStringConvertible {
    var storage: sockaddr_storage
    var length: socklen_t

    /// The address family, `AF_INET` or `AF_INET6`.
    var family: Int32 { Int32(storage.ss_family) }

    /// Copies an address that `getaddrinfo` returned.
    init(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        storage = sockaddr_storage()
        self.length = min(length, socklen_t(MemoryLayout<sockaddr_storage>.size))
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(self.length)))
        }
    }

    /// The address for an IPv4 or IPv6 literal such as `127.0.0.1` or `::1`, or `nil` for a host name.
    init?(literal host: String, port: Int) {
        guard let port = UInt16(exactly: port) else { return nil }
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            self.init(copying: v4)
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            self.init(copying: v6)
            return
        }
        return nil
    }

    private init<Address>(copying address: Address) {
        storage = sockaddr_storage()
        length = socklen_t(MemoryLayout<Address>.size)
        withUnsafeMutableBytes(of: &storage) { target in
            withUnsafeBytes(of: address) { target.copyMemory(from: $0) }
        }
    }

    /// Whether `host` is an IPv4 or IPv6 literal (no name resolution, no SNI).
    static func isLiteral(_ host: String) -> Bool {
        SocketAddress(literal: host, port: 0) != nil
    }

    /// The IP address's bytes in network order: 4 for IPv4, 16 for IPv6 (the port left out).
    var ipBytes: [UInt8] {
        withUnsafeBytes(of: storage) { raw -> [UInt8] in
            if family == AF_INET {
                let ip = raw.load(as: sockaddr_in.self).sin_addr
                return withUnsafeBytes(of: ip) { Array($0) }
            }
            let ip = raw.load(as: sockaddr_in6.self).sin6_addr
            return withUnsafeBytes(of: ip) { Array($0) }
        }
    }

    /// Calls `body` with the address as `connect` wants it.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    /// For example `127.0.0.1:8080` or `[::1]:8080`.
    var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        return withUnsafeBytes(of: storage) { raw -> String in
            if family == AF_INET {
                let address = raw.load(as: sockaddr_in.self)
                var ip = address.sin_addr
                inet_ntop(AF_INET, &ip, &text, socklen_t(text.count))
                return String(decoding: text.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
                    + ":" + String(UInt16(bigEndian: address.sin_port))
            }
            let address = raw.load(as: sockaddr_in6.self)
            var ip = address.sin6_addr
            inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count))
            return "[" + String(decoding: text.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
                + "]:" + String(UInt16(bigEndian: address.sin6_port))
        }
    }
}
