#if canImport(Glibc)
import Glibc
#endif
import HTTPCore

/// Asks a SOCKS proxy, on a fresh connection to it, for a connection to the origin: SOCKS5 (RFC 1928, with no
/// authentication or a user name and password per RFC 1929), SOCKS4a (the proxy resolves the name) or SOCKS4
/// (an IPv4 address resolved here). Once the proxy grants it, the socket carries the origin's bytes: TLS for an
/// `https` origin starts on it as on a direct connection.
///
/// Every read asks for exactly the bytes the reply still lacks, so nothing of the origin's stream is read here,
/// and every read and write waits at most the connect timeout, as the answer to `CONNECT` does.
struct SOCKSHandshake {
    /// The connection to the proxy, nothing sent on it yet.
    let connection: Connection
    /// The origin (host and port) and the SOCKS route.
    let key: PoolKey
    /// The longest wait for each read or write (the connect timeout, ``NanoTime`` nanoseconds).
    let timeout: UInt64
    /// Resolves the origin's name when the route asks for local resolution.
    let resolve: @Sendable (String, Int) async throws -> [SocketAddress]

    private var proxy: ProxyRoute { key.route }

    /// Runs the handshake for the route's kind.
    /// - Throws: ``RouteUnreachable`` when the proxy could not reach the origin or closed the connection (the next
    ///   route may be tried); ``ProxyTunnel/Answer/refused(_:)`` when it refused by rule or authentication;
    ///   ``ClientError`` with ``ClientError/Code/protocolViolation`` for a reply that is not SOCKS,
    ///   ``ClientError/Code/timedOut``, ``ClientError/Code/invalidConfiguration`` (a user name or password longer
    ///   than SOCKS allows), ``ClientError/Code/nameResolutionFailed``; or `CancellationError`.
    func run() async throws {
        if proxy.kind == .socks5 {
            try await socks5()
        } else {
            try await socks4()
        }
    }

    // MARK: SOCKS5

    private func socks5() async throws {
        let credential = proxy.credential
        try await write([5, credential == nil ? 1 : 2, 0x00] + (credential == nil ? [] : [0x02]))
        let choice = try await read(2)
        guard choice[0] == 5 else { throw failure(SOCKSError(.malformedReply)) }
        switch choice[1] {
        case 0x00:
            break
        case 0x02:
            guard let credential else { throw failure(SOCKSError(.malformedReply)) }
            try await authenticate(credential)
        case 0xFF:
            throw failure(SOCKSError(.noAcceptableMethod))
        default:
            throw failure(SOCKSError(.malformedReply))
        }

        var request: [UInt8] = [5, 1, 0]
        if proxy.resolvesNamesRemotely && !SocketAddress.isLiteral(key.host) {
            let name = Array(key.host.utf8)
            guard name.count <= 255 else {
                throw ClientError(.invalidRequest, stage: .transport,
                                  message: "The host name is too long for SOCKS5 (at most 255 bytes)")
            }
            request += [3, UInt8(name.count)] + name
        } else {
            let address = try await originAddresses().first!
            request += address.family == AF_INET6 ? [4] : [1]
            request += address.ipBytes
        }
        request += [UInt8(key.port >> 8), UInt8(key.port & 0xFF)]
        try await write(request)

        let reply = try await read(4)
        guard reply[0] == 5, reply[2] == 0 else { throw failure(SOCKSError(.malformedReply)) }
        guard reply[1] == 0 else { throw failure(SOCKSError.socks5(reply: reply[1])) }
        // The bound address and port, which a CONNECT client does not need.
        switch reply[3] {
        case 1: _ = try await read(4 + 2)
        case 4: _ = try await read(16 + 2)
        case 3: _ = try await read(Int(try await read(1)[0]) + 2)
        default: throw failure(SOCKSError(.malformedReply))
        }
    }

    /// RFC 1929: version 1, the user name and the password, each at most 255 bytes.
    private func authenticate(_ credential: Credential) async throws {
        let user = Array(credential.user.utf8)
        let password = Array(credential.password.utf8)
        guard (1...255).contains(user.count), password.count <= 255 else {
            throw ClientError(.invalidConfiguration, stage: .transport,
                              message: "The SOCKS5 user name and password must each be 1 to 255 bytes long")
        }
        try await write([1, UInt8(user.count)] + user + [UInt8(password.count)] + password)
        let status = try await read(2)
        guard status[0] == 1 else { throw failure(SOCKSError(.malformedReply)) }
        guard status[1] == 0 else { throw failure(SOCKSError(.authenticationFailed, replyCode: status[1])) }
    }

    // MARK: SOCKS4 and SOCKS4a

    private func socks4() async throws {
        var request: [UInt8] = [4, 1, UInt8(key.port >> 8), UInt8(key.port & 0xFF)]
        let user = Array((proxy.credential?.user ?? "").utf8)
        var trailer: [UInt8] = []
        if let literal = SocketAddress(literal: key.host, port: key.port), literal.family == AF_INET {
            request += literal.ipBytes
        } else if proxy.resolvesNamesRemotely && !SocketAddress.isLiteral(key.host) {
            request += [0, 0, 0, 1]  // SOCKS4a: an invalid address, and the name after the user id
            trailer = Array(key.host.utf8) + [0]
        } else {
            guard let address = try await originAddresses().first(where: { $0.family == AF_INET }) else {
                throw failure(SOCKSError(.noIPv4Address))
            }
            request += address.ipBytes
        }
        try await write(request + user + [0] + trailer)
        let reply = try await read(8)
        guard reply[0] == 0 || reply[0] == 4 else { throw failure(SOCKSError(.malformedReply)) }
        guard reply[1] == 0x5A else { throw failure(SOCKSError.socks4(reply: reply[1])) }
    }

    // MARK: Bytes

    private func originAddresses() async throws -> [SocketAddress] {
        if let literal = SocketAddress(literal: key.host, port: key.port) { return [literal] }
        let addresses = try await resolve(key.host, key.port)
        guard !addresses.isEmpty else {
            throw ClientError(.nameResolutionFailed, stage: .transport, message: "No address for \(key.host)")
        }
        return addresses
    }

    private func write(_ bytes: [UInt8]) async throws {
        connection.inactivityTimeout = timeout
        do {
            try await connection.write(bytes)
        } catch let error as ClientError where error.code == .timedOut {
            throw timedOut()
        }
    }

    /// Reads exactly `count` bytes, never more, so the origin's first bytes stay in the socket.
    private func read(_ count: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            connection.inactivityTimeout = timeout
            let read: Int
            do {
                read = try await connection.read(upTo: count - bytes.count)
            } catch let error as ClientError where error.code == .timedOut {
                throw timedOut()
            }
            guard read > 0 else { throw failure(SOCKSError(.closed)) }
            bytes += connection.received(read)
        }
        return bytes
    }

    private func timedOut() -> ClientError {
        ClientError(.timedOut, stage: .transport,
                    message: "The SOCKS proxy \(proxy) did not answer within the connect timeout")
    }

    /// The error for `socks`: a failover for an unreachable origin or a closed connection, a refusal for rules and
    /// authentication, a protocol violation for garbage.
    private func failure(_ socks: SOCKSError) -> any Error {
        let origin = (key.host.contains(":") ? "[\(key.host)]" : key.host) + ":" + String(key.port)
        let message = "The SOCKS proxy \(proxy) did not connect to \(origin): \(socks.reason)"
        if socks.reason == .malformedReply {
            return ClientError(.protocolViolation, stage: .transport, message: message, underlying: socks)
        }
        if socks.allowsFailover {
            return RouteUnreachable(error: ClientError(.connectFailed, stage: .transport, message: message,
                                                       underlying: socks))
        }
        let code: ClientError.Code =
            socks.reason == .authenticationFailed || socks.reason == .noAcceptableMethod
            ? .authenticationFailed : .connectFailed
        return ProxyTunnel.Answer.refused(ClientError(code, stage: .transport, message: message, underlying: socks))
    }
}
