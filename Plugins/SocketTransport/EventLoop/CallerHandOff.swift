/// The executor a request's task prefers around its stay on an ``EventLoop``, so that the hop back to the caller's
/// executor when the request ends comes to the loop instead of going straight to the global concurrent executor
/// (``POSIXTransport/handOffTaskExecutor``, decision 0037's addendum).
///
/// `Client` wraps a request that joins a busy loop in two preferences: this one, then the loop. A job enqueued here
/// from the loop thread is a task leaving the loop at the end of its request: the loop collects it in its
/// ``HandBackQueue`` and hands the round's callers to the global executor together. A job enqueued from any other
/// thread is a task on its way onto the loop (whose next step is to prefer the loop), so it goes to the loop's job
/// list.
final class CallerHandOff: TaskExecutor, Sendable {
    /// The loop whose requests this executor hands back.
    let loop: EventLoop

    init(loop: EventLoop) {
        self.loop = loop
        loop.handBacks.attach(self)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        loop.handOff(job)
    }
}
