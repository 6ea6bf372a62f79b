import HTTPCore
import Synchronization

/// The sessions of the configured ``HTTPCore/MultiplexedProtocol``s, by origin (``PoolKey``), and what is known
/// about each origin: whether it answered HTTP/1.1 instead, and whether a connection to it is being opened.
///
/// A request for an origin takes a stream on a session with room; when there is none it opens a connection
/// (one at a time per origin, so 100 requests started together wait for the first connection instead of
/// opening 100, unless the transport does not wait for multiplexing: then each opens one while the pool allows),
/// or waits until room comes free. The pool still counts every connection, so
/// ``POSIXTransport/Configuration/maxConnectionsPerHost`` bounds sessions too. The lock is held only to decide;
/// waiters are resumed after unlocking.
final class MultiplexedSessions: Sendable {
    /// What a request for an origin does next.
    enum Step {
        /// Send on this session; a stream is reserved.
        case send(any ProtocolSession)
        /// Open a connection; the request is the origin's opener until it calls ``opened(_:session:)``,
        /// ``answeredHTTP1(_:)`` or ``openFailed(_:)``.
        case open
        /// The origin answers HTTP/1.1: use the pool.
        case http1
    }

    fileprivate struct Origin {
        var sessions: [any ProtocolSession] = []
        /// Connections being opened to the origin.
        var openings = 0
        var answersHTTP1 = false
        var waiters: [UInt64: UnsafeContinuation<MultiplexedSessions.Step?, any Error>] = [:]
    }

    fileprivate struct State {
        var origins: [PoolKey: Origin] = [:]
        var nextWaiter: UInt64 = 0
        var isShutDown = false
    }

    /// The configured protocols, most preferred first.
    let protocols: [any MultiplexedProtocol]
    private let state = Mutex(State())

    init(protocols: [any MultiplexedProtocol]) {
        self.protocols = protocols
    }

    /// The protocol that may carry requests for `key`: the first configured one for `https` (ALPN decides on the
    /// connection), the first with prior knowledge for a direct or tunnelled `http` origin; `nil` otherwise.
    func candidate(for key: PoolKey) -> (any MultiplexedProtocol)? {
        if key.offersOnlyHTTP1 { return nil }
        if key.tls != nil { return protocols.first }
        guard key.proxy == nil || key.isTunnel || key.isSOCKS else { return nil }
        return protocols.first { $0.speaksCleartextWithPriorKnowledge }
    }

    /// The protocol of `protocols` named `alpn`, if any.
    func negotiated(_ alpn: String?) -> (any MultiplexedProtocol)? {
        guard let alpn else { return nil }
        return protocols.first { $0.alpnIdentifier == alpn }
    }

    /// Decides what a request for `key` does, waiting while another request opens the origin's connection (when
    /// `waits`) or every session is full and no other connection may be opened.
    /// - Parameters:
    ///   - key: The origin.
    ///   - maxConnections: The pool's per-host limit.
    ///   - waits: Whether to wait for a connection another request is opening rather than open one more
    ///     (``POSIXTransport/Configuration/waitsForMultiplexing``).
    /// - Returns: The next step.
    /// - Throws: `CancellationError`, or ``ClientError`` after ``shutDown()``.
    func next(for key: PoolKey, maxConnections: Int, waits: Bool = true) async throws -> Step {
        // Most requests find room on a session at once: decided without a continuation or a cancellation handler.
        try Task.checkCancellation()
        if let step = try state.withLock({ try $0.decide(key, maxConnections: maxConnections, waits: waits) }) {
            return step
        }
        while true {
            try Task.checkCancellation()
            let id = state.withLock { state -> UInt64 in
                state.nextWaiter += 1
                return state.nextWaiter
            }
            let step = try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Step?, any Error>) in
                    // Decide under the lock the wake-ups take, so none is missed between deciding and waiting.
                    let decided = state.withLock { state -> Result<Step?, any Error>? in
                        do {
                            let step = try state.decide(key, maxConnections: maxConnections, waits: waits)
                            if let step { return .success(step) }
                        } catch {
                            return .failure(error)
                        }
                        state.origins[key, default: Origin()].waiters[id] = continuation
                        return nil
                    }
                    if let decided { continuation.resume(with: decided) }
                }
            } onCancel: {
                let waiter = state.withLock { $0.origins[key]?.waiters.removeValue(forKey: id) }
                waiter?.resume(throwing: CancellationError())
            }
            if let step { return step }
        }
    }

    /// The origin's opener has a session; waiting requests try again.
    func opened(_ key: PoolKey, session: any ProtocolSession) {
        let waiters = state.withLock { state in
            state.origins[key, default: Origin()].openings -= 1
            state.origins[key, default: Origin()].sessions.append(session)
            return state.takeWaiters(key)
        }
        waiters.forEach { $0.resume(returning: nil) }
    }

    /// The origin chose HTTP/1.1 by ALPN: its requests go to the pool from now on.
    func answeredHTTP1(_ key: PoolKey) {
        let waiters = state.withLock { state in
            state.origins[key, default: Origin()].openings -= 1
            state.origins[key, default: Origin()].answersHTTP1 = true
            return state.takeWaiters(key)
        }
        waiters.forEach { $0.resume(returning: nil) }
    }

    /// The opener could not open a connection; another waiting request tries.
    func openFailed(_ key: PoolKey) {
        let waiters = state.withLock { state in
            state.origins[key]?.openings -= 1
            return state.takeWaiters(key)
        }
        waiters.forEach { $0.resume(returning: nil) }
    }

    /// A session may have room again, or stopped taking streams: waiting requests try again.
    func capacityChanged(_ key: PoolKey) {
        let waiters = state.withLock { $0.takeWaiters(key) }
        waiters.forEach { $0.resume(returning: nil) }
    }

    /// A session's connection ended: it is never handed out again.
    func remove(_ key: PoolKey, session: any ProtocolSession) {
        let waiters = state.withLock { state in
            state.origins[key]?.sessions.removeAll { $0 === session }
            return state.takeWaiters(key)
        }
        waiters.forEach { $0.resume(returning: nil) }
    }

    /// Closes every session and fails every waiter.
    func shutDown() {
        let (sessions, waiters) = state.withLock { state in
            state.isShutDown = true
            let sessions = state.origins.values.flatMap(\.sessions)
            let waiters = state.origins.values.flatMap(\.waiters.values)
            state.origins = [:]
            return (sessions, waiters)
        }
        sessions.forEach { $0.close() }
        let error = ClientError(.connectFailed, stage: .transport, message: "The transport was shut down")
        waiters.forEach { $0.resume(throwing: error) }
    }
}

extension MultiplexedSessions.State {
    /// The next step for `key`, or `nil` to wait.
    fileprivate mutating func decide(
        _ key: PoolKey, maxConnections: Int, waits: Bool
    ) throws -> MultiplexedSessions.Step? {
        guard !isShutDown else {
            throw ClientError(.connectFailed, stage: .transport, message: "The transport was shut down")
        }
        var origin = origins[key] ?? MultiplexedSessions.Origin()
        defer { origins[key] = origin }
        if origin.answersHTTP1 { return .http1 }
        origin.sessions.removeAll { !$0.isAcceptingStreams }
        if let session = origin.sessions.first(where: { $0.reserveStream() }) { return .send(session) }
        guard !waits || origin.openings == 0, origin.sessions.count + origin.openings < maxConnections else {
            return nil
        }
        origin.openings += 1
        return .open
    }

    fileprivate mutating func takeWaiters(
        _ key: PoolKey
    ) -> [UnsafeContinuation<MultiplexedSessions.Step?, any Error>] {
        guard let waiters = origins[key]?.waiters, !waiters.isEmpty else { return [] }
        origins[key]?.waiters = [:]
        return Array(waiters.values)
    }
}
