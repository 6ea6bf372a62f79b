import Synchronization

/// The results one ``RequestQueue/results`` sequence has still to hand out, and the reader waiting for the next.
///
/// The sequence is an `AsyncStream` built with `init(unfolding:onCancel:)` over this buffer rather than a buffered
/// `AsyncStream`, whose storage is generic code the compiler cannot specialize from outside the standard library: a
/// yield to a waiting reader cost a heap allocation (the unspecialized `removeFirst()` of its waiters) and took 2 µs
/// of CPU on the event loop per request (Docs/Decisions/0035-queue-workers.md, addendum). The behaviour is the
/// buffered stream's: results are kept until read (no limit), ``finish()`` lets the reader take what is buffered and
/// then ends the sequence, and a reader's task cancelled while it iterates ends the sequence (the unfolding stream
/// returns `nil` from then on).
///
/// With a hand-off executor (the transport's ``Transport/handOffTaskExecutor``, when the queue's workers run on the
/// transport's executor) a result for a waiting reader is buffered and the reader is woken once per event-loop
/// round, by a task the loop hands back with the round's callers, instead of once per result: each wake-up of a
/// reader on another thread preempted the loop that ran the workers (Docs/Decisions/0035-queue-workers.md, second
/// addendum).
final class QueueResultBuffer: Sendable {
    private typealias Waiter = UnsafeContinuation<QueueResult?, Never>

    private struct State {
        /// Results not yet read, from `head` on; a read slot is emptied at once, so a read result is not kept.
        var items: [QueueResult?] = []
        var head = 0
        /// Readers waiting for a result; only while `items` has none. Usually one, kept inline.
        var waiters = InlineList<Waiter>()
        var isFinished = false
        /// A wake-up of the waiting reader is on its way through the hand-off executor.
        var wakeScheduled = false

        mutating func pop() -> QueueResult? {
            guard head < items.count else { return nil }
            let result = items[head].take()
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 64, head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            return result
        }
    }

    private let state = Mutex(State())
    /// Where a waiting reader's wake-up is sent, so that one wake-up carries a loop round's results; `nil` wakes the
    /// reader at each result.
    private let handOff: (any TaskExecutor)?

    /// Creates an empty buffer.
    /// - Parameter handOff: The executor a waiting reader's wake-up goes through (see the type's description), or
    ///   `nil` to wake it at each result.
    init(handOff: (any TaskExecutor)? = nil) {
        self.handOff = handOff
    }

    /// Hands a result to the waiting reader, or keeps it for the next read; does nothing once finished.
    func yield(_ result: consuming QueueResult) {
        // Moved into the buffer (or to the reader), not copied: a copy retains every part of the response.
        var result = Optional(result)
        guard let handOff else {
            let waiter = state.withLock { state -> Waiter? in
                guard !state.isFinished else { return nil }
                if let waiter = state.waiters.popFirst() { return waiter }
                state.items.append(result.take())
                return nil
            }
            if let waiter, let result = result.take() { waiter.resume(returning: result) }
            return
        }
        let scheduleWake = state.withLock { state -> Bool in
            guard !state.isFinished else { return false }
            state.items.append(result.take())
            guard !state.waiters.isEmpty, !state.wakeScheduled else { return false }
            state.wakeScheduled = true
            return true
        }
        if scheduleWake { Task(executorPreference: handOff) { [self] in wakeReader() } }
    }

    /// Resumes the waiting reader with the first buffered result; a reader that took the results itself meanwhile
    /// goes on waiting, and the next result schedules another wake-up.
    private func wakeReader() {
        let woken = state.withLock { state -> (Waiter, QueueResult)? in
            state.wakeScheduled = false
            guard !state.waiters.isEmpty, let result = state.pop() else { return nil }
            return (state.waiters.popFirst()!, result)
        }
        if let (waiter, result) = woken { waiter.resume(returning: result) }
    }

    /// Ends the sequence once the results buffered now are read; a waiting reader gets the next buffered result (one
    /// whose wake-up was still on its way) or `nil`, at once.
    func finish() {
        let woken = state.withLock { state -> [(Waiter, QueueResult?)] in
            state.isFinished = true
            var woken: [(Waiter, QueueResult?)] = []
            while let waiter = state.waiters.popFirst() { woken.append((waiter, state.pop())) }
            return woken
        }
        for (waiter, result) in woken { waiter.resume(returning: result) }
    }

    /// The next result, waiting for one while none is buffered; `nil` once finished and read. Inlined into the
    /// stream's closure, so that a read allocates no frame of its own.
    @inline(__always)
    func next() async -> QueueResult? {
        if let result = state.withLock({ $0.pop() }) { return result }
        return await withUnsafeContinuation { (waiter: Waiter) in
            let now = state.withLock { state -> QueueResult?? in
                if let result = state.pop() { return .some(result) }
                if state.isFinished { return .some(nil) }
                state.waiters.append(waiter)
                return .none
            }
            if let now { waiter.resume(returning: now) }
        }
    }

    /// Whether a reader waits for a result now; for tests.
    var hasWaitingReader: Bool { state.withLock { !$0.waiters.isEmpty } }

    /// The sequence a reader iterates.
    func stream() -> AsyncStream<QueueResult> {
        AsyncStream(unfolding: { [self] in await next() }, onCancel: { [self] in finish() })
    }
}
