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
final class QueueResultBuffer: Sendable {
    private typealias Waiter = UnsafeContinuation<QueueResult?, Never>

    private struct State {
        /// Results not yet read, from `head` on; a read slot is emptied at once, so a read result is not kept.
        var items: [QueueResult?] = []
        var head = 0
        /// Readers waiting for a result; only while `items` has none. Usually one, kept inline.
        var waiters = InlineList<Waiter>()
        var isFinished = false

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

    /// Hands a result to the waiting reader, or keeps it for the next read; does nothing once finished.
    func yield(_ result: QueueResult) {
        let waiter = state.withLock { state -> Waiter? in
            guard !state.isFinished else { return nil }
            if let waiter = state.waiters.popFirst() { return waiter }
            state.items.append(result)
            return nil
        }
        waiter?.resume(returning: result)
    }

    /// Ends the sequence once the results buffered now are read; waiting readers get `nil` at once (they wait only
    /// when nothing is buffered).
    func finish() {
        let waiters = state.withLock { state -> InlineList<Waiter> in
            state.isFinished = true
            defer { state.waiters = InlineList() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
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

    /// The sequence a reader iterates.
    func stream() -> AsyncStream<QueueResult> {
        AsyncStream(unfolding: { [self] in await next() }, onCancel: { [self] in finish() })
    }
}
