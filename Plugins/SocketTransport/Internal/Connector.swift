#if canImport(Glibc)
import Glibc
#endif
import HTTPCore

/// Opens new connections: name resolution, a non-blocking connect to each address in turn, then the TLS
/// handshake for `https`, all under one connect deadline. Through a proxy, the socket connects to the proxy
/// (``PoolKey/connectHost`` and ``PoolKey/connectPort``) instead of the origin.
struct Connector: Sendable {
    let loops: EventLoopGroup
    let resolver: NameResolver
    let tlsContexts: TLSContextCache
    /// ``POSIXTransport/Configuration/addressOverrides``.
    var addressOverrides: [String: String] = [:]

    /// Opens a connection for `key`.
    /// - Parameters:
    ///   - key: Scheme, host, port, TLS options and route.
    ///   - options: The request's options (connect timeout, inactivity timeout).
    ///   - proxyAuthorization: For a `CONNECT` tunnel, the `Proxy-Authorization` to send with `CONNECT` (already
    ///     checked to apply to the route).
    /// - Returns: A connected (and, for `https`, handshaken) connection; for an `https` origin through an HTTP
    ///   proxy, a tunnel (see ``ProxyTunnel``) with TLS to the origin inside it.
    /// - Throws: ``ClientError`` with `nameResolutionFailed`, `connectFailed`, `timedOut`, `tlsHandshakeFailed`,
    ///   `certificateInvalid` or `invalidConfiguration`; ``ProxyTunnel/Answer`` or ``RouteUnreachable`` from a
    ///   tunnel; or `CancellationError`.
    func connect(
        _ key: PoolKey, options: RequestOptions, proxyAuthorization: ProxyAuthorization? = nil
    ) async throws -> Connection {
        let timeout = (options.connectTimeout ?? options.timeout).map(NanoTime.nanoseconds) ?? NanoTime.never
        let deadline = NanoTime.deadline(after: timeout)
        let tlsContext = try key.tls.map { try tlsContexts.context(for: $0) }
        let addresses: [SocketAddress]
        let host = key.connectHost
        let port = key.connectPort
        if let literal = SocketAddress(literal: host, port: port) {
            addresses = [literal]
        } else if let override = addressOverrides["\(host.lowercased()):\(port)"],
            let literal = SocketAddress(literal: override, port: port)
        {
            addresses = [literal]
        } else {
            addresses = try await resolver.resolve(host: host, port: port)
        }

        var lastError: SyscallError?
        for address in addresses {
            try Task.checkCancellation()
            guard let connection = try await connect(to: address, key: key, deadline: deadline, timeout: timeout,
                                                     lastError: &lastError)
            else { continue }
            if key.isTunnel {
                do {
                    try await ProxyTunnel.open(on: connection, key: key, authorization: proxyAuthorization,
                                               timeout: timeout)
                } catch {
                    connection.close()
                    throw error
                }
            }
            if let tlsContext {
                try await connection.startTLS(context: tlsContext, host: key.host, port: key.port, deadline: deadline)
            }
            return connection
        }
        throw ClientError(.connectFailed, stage: .transport, message: "Could not connect to \(key.peerDescription)",
                          underlying: lastError)
    }

    /// One TCP connect; `nil` (with `lastError` set) when this address refused or could not be reached.
    private func connect(
        to address: SocketAddress, key: PoolKey, deadline: UInt64, timeout: UInt64, lastError: inout SyscallError?
    ) async throws -> Connection? {
        let fd = try Socket.open(family: address.family)
        let started = Socket.connect(fd, to: address)
        guard started == 0 || started == EINPROGRESS else {
            Socket.close(fd)
            lastError = SyscallError(errno: started, operation: "connect")
            return nil
        }
        let handle: IOHandle
        do {
            handle = try loops.next().register(fd)
        } catch {
            Socket.close(fd)
            throw error
        }
        let connection = Connection(fd: fd, handle: handle, key: key)
        if started == EINPROGRESS {
            do {
                try await handle.wait(for: .write, until: deadline)
            } catch is IOHandle.TimedOut {
                let limit = NanoTime.describe(timeout)
                throw ClientError(.timedOut, stage: .transport,
                                  message: "Could not connect to \(key.peerDescription) within \(limit)")
            }
            let result = Socket.pendingError(fd)
            guard result == 0 else {
                lastError = SyscallError(errno: result, operation: "connect")
                return nil
            }
        }
        return connection
    }
}
