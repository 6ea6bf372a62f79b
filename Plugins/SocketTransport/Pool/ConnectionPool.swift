import HTTPCore
import Logging
import Synchronization

/// Idle keep-alive connections per ``PoolKey``, the per-host connection limit and the queue of requests waiting
/// for a connection (ASIHTTPRequest §18).
///
/// The lock is held only to decide; sockets are closed and waiters resumed after unlocking. Idle connections
/// past their deadline are closed lazily, when any request checks out a connection (no background task).
///
/// A bound connection (``Connection/isBound``: it carried an NTLM handshake) is taken from the idle list only by
/// a request that asks for its id; it is never handed to a waiter (it is closed and the waiter opens a new one),
/// and it is closed to make room when the host is at its limit.
final class ConnectionPool: Sendable {
    /// What a checked-out request may do.
    enum Grant: Sendable {
        /// Use this idle connection.
        case reuse(Connection)
        /// Open a new connection; the slot is already counted.
        case create
    }

    fileprivate struct Waiter {
        var id: UInt64
        var continuation: UnsafeContinuation<Grant, any Error>
    }

    fileprivate struct Host {
        var idle: [Connection] = []
        var open = 0
        var waiters: [Waiter] = []
    }

    fileprivate struct State {
        var hosts: [PoolKey: Host] = [:]
        var nextExpiry = NanoTime.never
        var nextWaiterID: UInt64 = 0
        var isShutDown = false
    }

    private let maxPerHost: Int
    private let state = Mutex(State())

    /// Creates an empty pool.
    /// - Parameter maxPerHost: The most open connections per key.
    init(maxPerHost: Int) {
        self.maxPerHost = maxPerHost
    }

    /// Checks out a connection for `key`: an idle one when there is one (unless `forceNew`), else permission to
    /// open one, else waits in FIFO order until a connection is released.
    /// - Parameters:
    ///   - key: The pool key.
    ///   - forceNew: Skip idle connections (a retry after a stale one).
    ///   - preferred: The idle connection to take first when it is still usable (an NTLM handshake's).
    ///   - logger: Where to log idle connections closed on the way.
    /// - Returns: The grant.
    /// - Throws: `CancellationError`, or ``ClientError`` after ``shutDown()``.
    func checkOut(_ key: PoolKey, forceNew: Bool, preferred: UInt64? = nil, logger: Logger) async throws -> Grant {
        var closing: [Connection] = []
        let immediate = try state.withLock { state -> Grant? in
            if !forceNew, let preferred, let connection = state.takeIdle(key, id: preferred) {
                return Grant.reuse(connection)
            }
            return try state.tryCheckOut(key, forceNew: forceNew, maxPerHost: maxPerHost, closing: &closing)
        }
        close(closing, reason: "expired or closed by the server", logger: logger)
        if let immediate { return immediate }

        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        logger.trace("Waiting for a connection", metadata: ["peer": "\(key)"])
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Grant, any Error>) in
                var closing: [Connection] = []
                let result = Result {
                    try state.withLock { state -> Grant? in
                        if let grant = try state.tryCheckOut(key, forceNew: forceNew, maxPerHost: maxPerHost,
                                                             closing: &closing) {
                            return grant
                        }
                        state.hosts[key, default: Host()].waiters.append(Waiter(id: id, continuation: continuation))
                        return nil
                    }
                }
                close(closing, reason: "expired or closed by the server", logger: logger)
                switch result {
                case .success(let grant?): continuation.resume(returning: grant)
                case .success(nil): break
                case .failure(let error): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.hosts[key]?.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.hosts[key]?.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Takes back a checked-out connection: keeps it idle (or hands it to a waiter) when `reuse` is true and the
    /// pool still runs, otherwise closes it and frees its slot.
    /// - Parameters:
    ///   - connection: The connection; its ``Connection/idleDeadline`` must be set when reused.
    ///   - reuse: Whether it may carry another request.
    func checkIn(_ connection: Connection, reuse: Bool) {
        let key = connection.key
        // An idle connection holds no read buffer; still the caller's here (in the idle list another request may
        // take it).
        connection.returnReadBuffer()
        let (handOver, closeIt) = state.withLock { state -> ((Waiter, Grant)?, Bool) in
            if reuse && !state.isShutDown && !connection.isClosed {
                if let waiter = state.parkOrHandOver(connection, key: key) {
                    return connection.isBound ? ((waiter, .create), true) : ((waiter, .reuse(connection)), false)
                }
                state.nextExpiry = min(state.nextExpiry, connection.idleDeadline)
                return (nil, false)
            }
            return (state.freeSlot(key), true)
        }
        if closeIt { connection.close() }
        if let (waiter, grant) = handOver { waiter.continuation.resume(returning: grant) }
    }

    /// Frees the slot of a ``Grant/create`` that did not produce a connection.
    func releaseSlot(_ key: PoolKey) {
        let handOver = state.withLock { $0.freeSlot(key) }
        if let (waiter, grant) = handOver { waiter.continuation.resume(returning: grant) }
    }

    /// Closes every idle connection and fails every waiter; later check-ins close their connection. Idempotent.
    func shutDown() {
        let (idle, waiters) = state.withLock { state -> ([Connection], [Waiter]) in
            state.isShutDown = true
            var idle: [Connection] = []
            var waiters: [Waiter] = []
            for (key, host) in state.hosts {
                idle += host.idle
                waiters += host.waiters
                state.hosts[key]?.idle = []
                state.hosts[key]?.waiters = []
                state.hosts[key]?.open -= host.idle.count
            }
            return (idle, waiters)
        }
        for connection in idle { connection.close() }
        for waiter in waiters { waiter.continuation.resume(throwing: EventLoop.shutDownError) }
    }

    /// The connections open for `key` (idle or in use), for tests.
    func openCount(_ key: PoolKey) -> Int {
        state.withLock { $0.hosts[key]?.open ?? 0 }
    }

    private func close(_ connections: [Connection], reason: String, logger: Logger) {
        for connection in connections {
            logger.debug("Closing idle connection", metadata: ["connection": "\(connection.id)", "reason": "\(reason)"])
            connection.close()
        }
    }
}

extension ConnectionPool.Host {
    /// An idle connection, permission to open one, or `nil` to wait. Unusable idle connections go to `closing`.
    fileprivate mutating func checkOut(
        now: UInt64, forceNew: Bool, maxPerHost: Int, closing: inout [Connection]
    ) -> ConnectionPool.Grant? {
        var index = idle.endIndex
        while index > idle.startIndex {
            index -= 1
            let connection = idle[index]
            let usable = connection.isUsable(now: now)
            if usable && connection.isBound { continue }  // only for the request that asks for it
            if usable && !forceNew { return .reuse(idle.remove(at: index)) }
            if usable && open < maxPerHost { break }
            idle.remove(at: index)
            open -= 1
            closing.append(connection)
        }
        if open >= maxPerHost, let bound = idle.firstIndex(where: \.isBound) {
            closing.append(idle.remove(at: bound))
            open -= 1
        }
        guard open < maxPerHost else { return nil }
        open += 1
        return .create
    }
}

extension ConnectionPool.State {
    /// Takes the idle connection `id` for `key` when it is still usable.
    fileprivate mutating func takeIdle(_ key: PoolKey, id: UInt64) -> Connection? {
        guard let index = hosts[key]?.idle.firstIndex(where: { $0.id == id }),
            hosts[key]?.idle[index].isUsable(now: NanoTime.now()) == true
        else { return nil }
        return hosts[key]?.idle.remove(at: index)
    }

    /// An idle connection, permission to open one, or `nil` to wait. Unusable idle connections go to `closing`.
    /// Out of line: the dictionary's in-place access would otherwise widen the async frame of the pool's
    /// `checkOut`, which every request allocates.
    @inline(never)
    fileprivate mutating func tryCheckOut(
        _ key: PoolKey, forceNew: Bool, maxPerHost: Int, closing: inout [Connection]
    ) throws -> ConnectionPool.Grant? {
        guard !isShutDown else { throw EventLoop.shutDownError }
        let now = NanoTime.now()
        if now >= nextExpiry { sweep(now: now, closing: &closing) }
        // In place: a copy of the host taken out of the dictionary would share its idle array, and taking a
        // connection from it would then copy the array (a heap allocation per check-out).
        return hosts[key, default: ConnectionPool.Host()].checkOut(
            now: now, forceNew: forceNew, maxPerHost: maxPerHost, closing: &closing)
    }

    /// Removes every idle connection past its deadline.
    private mutating func sweep(now: UInt64, closing: inout [Connection]) {
        var next = NanoTime.never
        for key in hosts.keys {
            var host = hosts[key]!
            let before = host.idle.count
            host.idle.removeAll { connection in
                guard connection.idleDeadline <= now else {
                    next = min(next, connection.idleDeadline)
                    return false
                }
                closing.append(connection)
                return true
            }
            host.open -= before - host.idle.count
            hosts[key] = host
        }
        nextExpiry = next
        hosts = hosts.filter { $0.value.open > 0 || !$0.value.waiters.isEmpty }
    }

    fileprivate mutating func popWaiter(_ key: PoolKey) -> ConnectionPool.Waiter? {
        guard let index = hosts.index(forKey: key), !hosts.values[index].waiters.isEmpty else { return nil }
        return hosts.values[index].waiters.removeFirst()
    }

    /// Hands a reusable connection's slot to the first waiter for `key` (returned), or parks the connection idle.
    /// One lookup of the key, and the host changed in place: hashing a key (its strings and TLS options) and
    /// copying a host out of the dictionary are most of what a check-in costs.
    @inline(never)
    fileprivate mutating func parkOrHandOver(_ connection: Connection, key: PoolKey) -> ConnectionPool.Waiter? {
        guard let index = hosts.index(forKey: key) else {
            var host = ConnectionPool.Host()
            host.idle.append(connection)
            hosts[key] = host
            return nil
        }
        if !hosts.values[index].waiters.isEmpty { return hosts.values[index].waiters.removeFirst() }
        hosts.values[index].idle.append(connection)
        return nil
    }

    /// Frees one slot of `key`, or passes it to the first waiter.
    fileprivate mutating func freeSlot(_ key: PoolKey) -> (ConnectionPool.Waiter, ConnectionPool.Grant)? {
        if let waiter = popWaiter(key) { return (waiter, .create) }
        hosts[key]?.open -= 1
        if let host = hosts[key], host.open <= 0, host.idle.isEmpty, host.waiters.isEmpty { hosts[key] = nil }
        return nil
    }
}
