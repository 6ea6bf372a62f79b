#if canImport(Glibc)
import Glibc
#endif
import HTTPCore

/// Happy Eyeballs version 2 (RFC 8305) for the TCP connect: the resolver's addresses interleaved by family, IPv6
/// first; each attempt starts when the previous one failed or after ``Connector/attemptDelay``, whichever comes
/// first; the first connection wins and every other attempt is cancelled and its socket closed. A blackholed
/// address so costs one attempt delay, not the connect timeout.
extension Connector {
    /// What one attempt (or the timer between two) ended with.
    private enum Event: Sendable {
        case connected(Connection)
        case failed(SyscallError?)
        case thrown(any Error)
        case timer(Int)
    }

    /// The addresses in the order they are tried (RFC 8305 §4): IPv6 and IPv4 alternating, IPv6 first, each
    /// family in the resolver's order.
    /// - Parameter addresses: The resolver's answer.
    /// - Returns: The same addresses, reordered.
    static func interleaved(_ addresses: [SocketAddress]) -> [SocketAddress] {
        let v6 = addresses.filter { $0.family == AF_INET6 }
        let v4 = addresses.filter { $0.family != AF_INET6 }
        var ordered: [SocketAddress] = []
        ordered.reserveCapacity(addresses.count)
        for index in 0..<max(v6.count, v4.count) {
            if index < v6.count { ordered.append(v6[index]) }
            if index < v4.count { ordered.append(v4[index]) }
        }
        return ordered
    }

    /// Opens a TCP connection to the first of `addresses` that answers, racing them as RFC 8305 says.
    /// - Parameters:
    ///   - addresses: The resolver's addresses.
    ///   - key: The connection's key.
    ///   - deadline: The connect deadline every attempt shares.
    ///   - timeout: The connect timeout, for the error message.
    /// - Returns: The winning connection; every other attempt is closed.
    /// - Throws: ``ClientError`` with `connectFailed` when every address failed (the last `errno` as its
    ///   underlying error), `timedOut` when the deadline passed first; or `CancellationError`.
    func race(
        _ addresses: [SocketAddress], key: PoolKey, deadline: UInt64, timeout: UInt64
    ) async throws -> Connection {
        if addresses.count == 1 {
            return try await connectOnly(to: addresses[0], key: key, deadline: deadline, timeout: timeout)
        }
        let ordered = Self.interleaved(addresses)
        let delay = attemptDelay
        let connector = self
        return try await withTaskGroup(of: Event.self) { group -> Result<Connection, any Error> in
            var next = 0
            var running = 0
            var timerGeneration = 0
            var lastError: SyscallError?
            var failure: (any Error)?
            var winner: Connection?
            func startAttempt() {
                let address = ordered[next]
                next += 1
                running += 1
                group.addTask {
                    do {
                        var error: SyscallError?
                        let connection = try await connector.connect(
                            to: address, key: key, deadline: deadline, timeout: timeout, lastError: &error)
                        return connection.map { .connected($0) } ?? .failed(error)
                    } catch {
                        return .thrown(error)
                    }
                }
                guard next < ordered.count else { return }
                timerGeneration += 1
                let generation = timerGeneration
                group.addTask {
                    try? await Task.sleep(for: delay)
                    return .timer(generation)
                }
            }
            startAttempt()
            while let event = await group.next() {
                switch event {
                case .connected(let connection):
                    running -= 1
                    if winner == nil && failure == nil {
                        winner = connection
                        group.cancelAll()  // the losers' waits end with CancellationError; their sockets close
                    } else {
                        connection.close()  // connected too late: a loser
                    }
                case .failed(let error):
                    running -= 1
                    lastError = error ?? lastError
                    if winner == nil, failure == nil, next < ordered.count { startAttempt() }
                case .thrown(let error):
                    running -= 1
                    if winner == nil, failure == nil, !(error is CancellationError) || Task.isCancelled {
                        failure = error  // the shared deadline passed, or the request was cancelled
                        group.cancelAll()
                    }
                case .timer(let generation):
                    if winner == nil, failure == nil, generation == timerGeneration, next < ordered.count {
                        startAttempt()
                    }
                }
                if winner == nil, failure == nil, running == 0, next >= ordered.count { break }
            }
            group.cancelAll()
            if let winner { return .success(winner) }
            if let failure { return .failure(failure) }
            if Task.isCancelled { return .failure(CancellationError()) }
            return .failure(Self.connectFailed(key, lastError))
        }.get()
    }

    /// The one attempt of a race over one address (a literal address, `localhost`, most names), made in the
    /// request's own task: a race would add a task group and a child task, whose frames every connection being
    /// opened holds until it connects (about 5 KB each, decision 0038). It ends as that race would.
    @inline(never)
    private func connectOnly(
        to address: SocketAddress, key: PoolKey, deadline: UInt64, timeout: UInt64
    ) async throws -> Connection {
        var lastError: SyscallError?
        if let connection = try await connect(
            to: address, key: key, deadline: deadline, timeout: timeout, lastError: &lastError)
        {
            return connection
        }
        try Task.checkCancellation()
        throw Self.connectFailed(key, lastError)
    }

    /// The error of a race whose every attempt failed.
    private static func connectFailed(_ key: PoolKey, _ lastError: SyscallError?) -> ClientError {
        ClientError(.connectFailed, stage: .transport, message: "Could not connect to \(key.peerDescription)",
                    underlying: lastError)
    }
}
