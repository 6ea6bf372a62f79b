#if canImport(Glibc)
import Glibc
#endif
import HTTPCore
import Synchronization

/// Resolves host names with `getaddrinfo` on up to two dedicated threads, never on the cooperative pool.
///
/// Threads start on first use. A cancelled lookup returns at once; its thread finishes the call and drops the
/// answer (`getaddrinfo` cannot be interrupted).
final class NameResolver: Sendable {
    private struct State {
        var queue: [ResolveJob] = []
        var head = 0
        var threads = 0
        var idle = 0
        var isShutDown = false
    }

    private static let maxThreads = 2
    private let state = Mutex(State())
    private let semaphore = Semaphore()

    /// Resolves `host` for TCP on `port`.
    /// - Parameters:
    ///   - host: A host name (IP literals should not come here).
    ///   - port: The port.
    /// - Returns: The addresses in the order `getaddrinfo` ranks them (RFC 6724).
    /// - Throws: ``ClientError`` with ``ClientError/Code/nameResolutionFailed``, or `CancellationError`.
    func resolve(host: String, port: Int) async throws -> [SocketAddress] {
        let job = ResolveJob(host: host, port: port)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                guard job.install(continuation) else { return }
                do {
                    try enqueue(job)
                } catch {
                    job.finish(.failure(error))
                }
            }
        } onCancel: {
            job.finish(.failure(CancellationError()))
        }
    }

    /// How many resolver threads run, for tests.
    var threadCount: Int { state.withLock { $0.threads } }

    /// Stops the threads once the queue is empty; later lookups throw.
    func shutDown() {
        let threads = state.withLock { state -> Int in
            state.isShutDown = true
            return state.threads
        }
        for _ in 0..<threads { semaphore.signal() }
    }

    private func enqueue(_ job: ResolveJob) throws {
        let startThread = try state.withLock { state -> Bool in
            guard !state.isShutDown else { throw EventLoop.shutDownError }
            state.queue.append(job)
            guard state.idle == 0 && state.threads < Self.maxThreads else { return false }
            state.threads += 1
            return true
        }
        if startThread {
            do {
                try NativeThread.start(name: "asi-resolver") { [self] in work() }
            } catch {
                state.withLock { $0.threads -= 1 }
                throw error
            }
        }
        semaphore.signal()
    }

    private func work() {
        while true {
            state.withLock { $0.idle += 1 }
            semaphore.wait()
            let job = state.withLock { state -> ResolveJob? in
                state.idle -= 1
                guard state.head < state.queue.count else {
                    if state.isShutDown { state.threads -= 1 }
                    return nil
                }
                defer {
                    state.head += 1
                    if state.head == state.queue.count {
                        state.queue.removeAll(keepingCapacity: true)
                        state.head = 0
                    }
                }
                return state.queue[state.head]
            }
            guard let job else {
                if state.withLock({ $0.isShutDown }) { return }
                continue
            }
            if job.isFinished { continue }
            job.finish(Result { try Self.getaddrinfo(host: job.host, port: job.port) })
        }
    }

    private static func getaddrinfo(host: String, port: Int) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let result = Glibc.getaddrinfo(host, String(port), &hints, &list)
        guard result == 0 else {
            let reason = String(cString: gai_strerror(result))
            throw ClientError(.nameResolutionFailed, stage: .transport, message: "Cannot resolve \(host): \(reason)",
                              underlying: AddressInfoError(code: result, reason: reason))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr,
               current.pointee.ai_family == AF_INET || current.pointee.ai_family == AF_INET6 {
                addresses.append(SocketAddress(address, length: current.pointee.ai_addrlen))
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else {
            throw ClientError(.nameResolutionFailed, stage: .transport, message: "No address found for \(host)")
        }
        return addresses
    }
}

/// A `getaddrinfo` failure, kept as a ``ClientError/underlying`` error.
struct AddressInfoError: Error, Sendable, CustomStringConvertible {
    /// The `EAI_*` code.
    var code: Int32
    /// `gai_strerror`'s text.
    var reason: String

    var description: String { "getaddrinfo: \(reason) (\(code))" }
}

/// One queued lookup; its continuation is resumed exactly once, by the resolver or by cancellation.
final class ResolveJob: Sendable {
    private enum Phase {
        case created
        case waiting(UnsafeContinuation<[SocketAddress], any Error>)
        case finished
    }

    let host: String
    let port: Int
    private let phase = Mutex(Phase.created)

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Stores the continuation; returns `false` (after resuming it) when the job already finished.
    func install(_ continuation: UnsafeContinuation<[SocketAddress], any Error>) -> Bool {
        let installed = phase.withLock { phase -> Bool in
            guard case .created = phase else { return false }
            phase = .waiting(continuation)
            return true
        }
        if !installed { continuation.resume(throwing: CancellationError()) }
        return installed
    }

    var isFinished: Bool {
        phase.withLock { if case .finished = $0 { true } else { false } }
    }

    func finish(_ result: Result<[SocketAddress], any Error>) {
        let continuation = phase.withLock { phase -> UnsafeContinuation<[SocketAddress], any Error>? in
            defer { phase = .finished }
            if case .waiting(let continuation) = phase { return continuation }
            return nil
        }
        continuation?.resume(with: result)
    }
}

/// A POSIX counting semaphore for the resolver threads.
final class Semaphore: @unchecked Sendable {  // sem_t is thread-safe by definition; the pointer never changes
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init() {
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func signal() {
        sem_post(semaphore)
    }

    func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }
}
