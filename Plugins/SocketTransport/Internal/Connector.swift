#if canImport(Glibc)
import Glibc
#endif
import HTTPCore

/// Opens new connections: name resolution, non-blocking connects raced over the addresses (Happy Eyeballs v2,
/// `Connector+HappyEyeballs.swift`), then the TLS
/// handshake for `https`, all under one connect deadline. Through a proxy, the socket connects to the proxy
/// (``PoolKey/connectHost`` and ``PoolKey/connectPort``) instead of the origin, runs TLS to the proxy for an
/// HTTPS proxy, then a `CONNECT` tunnel (``ProxyTunnel``) or a SOCKS handshake (``SOCKSHandshake``) before TLS
/// to the origin.
struct Connector: Sendable {
    let loops: EventLoopGroup
    let resolver: NameResolver
    let tlsContexts: TLSContextCache
    /// ``POSIXTransport/Configuration/addressOverrides``.
    var addressOverrides: [String: String] = [:]
    /// ``POSIXTransport/Configuration/proxyTLS``.
    var proxyTLS = TLSOptions()
    /// ``POSIXTransport/Configuration/responseLimits``.
    var responseLimits = HTTP1Limits()
    /// ``POSIXTransport/Configuration/pinnedPublicKeys``.
    var pinnedPublicKeys: [String: PublicKeyPins] = [:]
    /// ``POSIXTransport/Configuration/happyEyeballsDelay``.
    var attemptDelay: Duration = .milliseconds(250)
    /// What TLS to an origin offers by ALPN: `http/1.1`, after the configured multiplexed protocols' ids.
    var originALPN = ALPNOffer.http1

    /// The ALPN offer for `key`'s origin: `http/1.1` alone for a connection-bound handshake's connection.
    func alpn(for key: PoolKey) -> ALPNOffer {
        key.offersOnlyHTTP1 ? .http1 : originALPN
    }

    /// The configured pins for `host`, looked up lower-cased and without a trailing dot.
    func pins(for host: String) -> PublicKeyPins? {
        guard !pinnedPublicKeys.isEmpty else { return nil }
        let name = TLSSession.referenceIdentifier(host).lowercased()
        return pinnedPublicKeys.first { TLSSession.referenceIdentifier($0.key).lowercased() == name }?.value
    }

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
        let timeout = Self.connectTimeout(options)
        let deadline = NanoTime.deadline(after: timeout)
        let proxyTLSContext = key.proxy?.kind == .https ? try tlsContexts.context(for: proxyTLS) : nil
        // A bad CA file fails before any connect.
        _ = try key.tls.map { try tlsContexts.context(for: $0, offering: alpn(for: key)) }
        let addresses = try await addresses(host: key.connectHost, port: key.connectPort)

        try Task.checkCancellation()
        let connection = try await race(addresses, key: key, deadline: deadline, timeout: timeout)
        if proxyTLSContext != nil || key.isSOCKS {
            try await greetProxy(on: connection, tls: proxyTLSContext, deadline: deadline, timeout: timeout)
        }
        try await finishOpening(connection, options: options, proxyAuthorization: proxyAuthorization,
                                deadline: deadline)
        return connection
    }

    /// The proxy's own steps on a new connection: TLS to an HTTPS proxy, the SOCKS handshake. Out of line, so the
    /// frame of ``connect(_:options:proxyAuthorization:)`` holds neither (a task keeps the slabs of its largest
    /// frames until it ends; decision 0038's addendum). Closes the connection on a throw.
    @inline(never)
    private func greetProxy(
        on connection: Connection, tls proxyTLSContext: TLSContext?, deadline: UInt64, timeout: UInt64
    ) async throws {
        let key = connection.key
        let connector = self
        do {
            if let proxyTLSContext, let proxy = key.proxy {
                try await connection.startTLS(context: proxyTLSContext, host: proxy.host, port: proxy.port,
                                              deadline: deadline, hostPins: pins(for: proxy.host))
            }
            if key.isSOCKS {
                try await SOCKSHandshake(connection: connection, key: key, timeout: timeout,
                                         resolve: { try await connector.addresses(host: $0, port: $1) }).run()
            }
        } catch {
            connection.close()
            throw error
        }
    }

    /// Finishes a connection to the proxy or origin: the `CONNECT` tunnel for a tunnel's key, then TLS to the
    /// origin for `https`. Also used on a kept connection whose `CONNECT` was answered with a challenge of a
    /// connection-bound scheme (``Connection/awaitsTunnel``), to send the next `CONNECT` on it.
    /// - Parameters:
    ///   - connection: The connection, connected (and for an HTTPS proxy, with TLS to the proxy).
    ///   - options: The request's options.
    ///   - proxyAuthorization: The `Proxy-Authorization` for `CONNECT`, if any.
    ///   - deadline: The connect deadline; `nil` to start one now.
    /// - Throws: As ``connect(_:options:proxyAuthorization:)``. The connection is closed on a throw, unless the
    ///   throw is a ``ProxyTunnel/Answer/challenged(_:keeping:)`` that keeps it.
    func finishOpening(
        _ connection: Connection, options: RequestOptions, proxyAuthorization: ProxyAuthorization?,
        deadline: UInt64? = nil
    ) async throws {
        let key = connection.key
        let timeout = Self.connectTimeout(options)
        let deadline = deadline ?? NanoTime.deadline(after: timeout)
        do {
            if key.isTunnel {
                connection.awaitsTunnel = false
                try await ProxyTunnel.open(on: connection, key: key, authorization: proxyAuthorization,
                                           timeout: timeout)
            }
            if let tls = key.tls {
                let context = try tlsContexts.context(for: tls, offering: alpn(for: key))
                try await connection.startTLS(context: context, host: key.host,
                                              port: key.port, deadline: deadline, hostPins: pins(for: key.host))
            }
        } catch ProxyTunnel.Answer.challenged(let response, let kept?) {
            connection.awaitsTunnel = true
            throw ProxyTunnel.Answer.challenged(response, keeping: kept)
        } catch {
            connection.close()
            throw error
        }
    }

    /// The addresses for `host`: the literal itself, the configured override, or the resolver's answer.
    func addresses(host: String, port: Int) async throws -> [SocketAddress] {
        if let literal = SocketAddress(literal: host, port: port) { return [literal] }
        if let override = addressOverrides["\(host.lowercased()):\(port)"],
            let literal = SocketAddress(literal: override, port: port)
        {
            return [literal]
        }
        return try await resolver.resolve(host: host, port: port)
    }

    private static func connectTimeout(_ options: RequestOptions) -> UInt64 {
        (options.connectTimeout ?? options.timeout).map(NanoTime.nanoseconds) ?? NanoTime.never
    }

    /// One TCP connect; `nil` (with `lastError` set) when this address refused or could not be reached.
    func connect(
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
        let connection = Connection(fd: fd, handle: handle, key: key, limits: responseLimits)
        if started == EINPROGRESS {
            do {
                try await handle.wait(for: .write, until: deadline)
            } catch is IOHandle.TimedOut {
                connection.close()
                let limit = NanoTime.describe(timeout)
                throw ClientError(.timedOut, stage: .transport,
                                  message: "Could not connect to \(key.peerDescription) within \(limit)")
            } catch {
                connection.close()  // cancelled: the request, or a Happy Eyeballs attempt another one beat
                throw error
            }
            let result = Socket.pendingError(fd)
            guard result == 0 else {
                connection.close()
                lastError = SyscallError(errno: result, operation: "connect")
                return nil
            }
        }
        return connection
    }
}
