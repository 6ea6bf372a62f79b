#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// The jobs of tasks that finished a request on an ``EventLoop`` and go back to their callers' executor (the global
/// concurrent one), handed over together once per round of the loop instead of one at a time (decision 0037's
/// addendum).
///
/// Handing each job to the global executor as the request ends wakes a cooperative thread with a futex. On a
/// machine where that thread shares the loop's CPU, the woken thread takes the CPU at once, runs the one caller,
/// whose next request goes back onto the loop, and sleeps again: two context switches and two futex calls per
/// request. Collected here, the round's jobs go over in one block: one wake-up for the round, and the callers'
/// next requests find the loop awake.
///
/// A drain runs the jobs on a cooperative thread as they come; while jobs wait behind the one it runs, a second drain
/// helps (up to the cooperative pool's width), so a caller that runs long or blocks does not hold up the others.
final class HandBackQueue: Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        /// The first job of `jobs` not yet taken by a drain.
        var next = 0
        /// Drains dispatched and not yet finished.
        var drains = 0
        /// The executor the drained jobs run as (their preference), until the loop ends.
        var owner: CallerHandOff?
    }

    /// The most drains at once: the cooperative pool's width.
    private static let maximumDrains = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    private let state = Mutex(State())

    /// Names the executor the jobs run as: the hand-off their tasks prefer, so that the step left inside its
    /// preference needs no hop; leaving it, they go to the global concurrent executor (from this drain's thread,
    /// which takes them next).
    func attach(_ owner: CallerHandOff) {
        state.withLock { $0.owner = owner }
    }

    /// Forgets the hand-off (the loop has ended), after a last ``flush()``.
    func detach() {
        state.withLock { $0.owner = nil }
    }

    /// Adds the job of a task whose request ended on the loop; ``flush()`` hands it over. Called on the loop thread.
    /// Once the loop has ended (``detach()``) nothing would flush it, so it goes to the global executor at once.
    func add(_ job: UnownedJob) {
        let ended = state.withLock { state -> Bool in
            guard state.owner != nil else { return true }
            state.jobs.append(job)
            return false
        }
        if ended { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// Dispatches a drain for the jobs added since the last one, unless a drain is already running (it takes them).
    /// Called by the loop once per round, after its jobs ran.
    func flush() {
        let owner = state.withLock { state -> CallerHandOff? in
            guard state.next < state.jobs.count, state.drains == 0, let owner = state.owner else { return nil }
            state.drains = 1
            return owner
        }
        if let owner { dispatchDrain(as: owner) }
    }

    private func dispatchDrain(as owner: CallerHandOff) {
        DispatchQueue.global().async { [self] in drain(as: owner) }
    }

    /// Runs the queued jobs on this (cooperative) thread, until none is left. Before each job that has others behind
    /// it, a second drain is dispatched (at most ``maximumDrains`` in all), so a caller that runs long or blocks never
    /// holds up the rest of the round, as the global executor would spread them over its threads.
    private func drain(as owner: CallerHandOff) {
        let executor = owner.asUnownedTaskExecutor()
        while let (job, helps) = take() {
            if helps { dispatchDrain(as: owner) }
            job.runSynchronously(on: executor)
        }
    }

    /// The next job, and whether another drain should help with the ones behind it; `nil` (and this drain ends) when
    /// none is left.
    private func take() -> (UnownedJob, helps: Bool)? {
        state.withLock { state -> (UnownedJob, helps: Bool)? in
            guard state.next < state.jobs.count else {
                state.jobs.removeAll(keepingCapacity: true)
                state.next = 0
                state.drains -= 1
                return nil
            }
            let job = state.jobs[state.next]
            state.next += 1
            let helps = state.next < state.jobs.count && state.drains < Self.maximumDrains
            if helps { state.drains += 1 }
            return (job, helps)
        }
    }
}
