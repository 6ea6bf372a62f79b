import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A dedicated thread that owns one ``PACWorker`` (and so one Duktape heap) and runs jobs on it one at a time.
/// Evaluations are CPU work bounded by the time limit, and DNS lookups block, so they run here rather than on the
/// cooperative pool; callers await them through a continuation.
final class PACEngineThread: Sendable {
    private typealias Job = @Sendable (PACWorker?) -> Void

    private struct Queue {
        var jobs: [Job] = []
        var stopped = false
    }

    private let queue = Mutex(Queue())
    // A POSIX semaphore counts queued jobs; sem_post and sem_wait are thread-safe.
    nonisolated(unsafe) private let signal: UnsafeMutablePointer<sem_t>
    private let makeWorker: @Sendable () -> PACWorker

    /// Starts the thread.
    /// - Parameter makeWorker: Makes the worker, on the thread.
    init(makeWorker: @escaping @Sendable () -> PACWorker) {
        self.makeWorker = makeWorker
        signal = .allocate(capacity: 1)
        sem_init(signal, 0, 0)
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            let owner = Unmanaged<PACEngineThread>.fromOpaque(argument!).takeRetainedValue()
            owner.loop()
            return nil
        }, box)
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_detach(thread)
    }

    deinit {
        sem_destroy(signal)
        signal.deallocate()
    }

    /// Runs `body` on the thread with its worker and returns what it returns; after ``stop()``, runs it at once
    /// without a worker.
    /// - Parameter body: The job.
    /// - Returns: The job's result.
    func run<Result: Sendable>(_ body: @escaping @Sendable (PACWorker?) -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            let accepted = queue.withLock { queue -> Bool in
                guard !queue.stopped else { return false }
                queue.jobs.append { worker in continuation.resume(returning: body(worker)) }
                return true
            }
            if accepted {
                sem_post(signal)
            } else {
                continuation.resume(returning: body(nil))
            }
        }
    }

    /// Lets the thread finish its queued jobs and end. Idempotent.
    func stop() {
        let first = queue.withLock { queue -> Bool in
            defer { queue.stopped = true }
            return !queue.stopped
        }
        if first { sem_post(signal) }
    }

    private func loop() {
        let worker = makeWorker()
        while true {
            while sem_wait(signal) != 0 {}
            let next = queue.withLock { queue -> Job?? in
                if !queue.jobs.isEmpty { return .some(queue.jobs.removeFirst()) }
                return queue.stopped ? .none : .some(nil)
            }
            guard let job = next else { return }
            job?(worker)
        }
    }
}
