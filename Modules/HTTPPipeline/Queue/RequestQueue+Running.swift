import FoundationEssentials
import HTTPCore
import Synchronization

extension RequestQueue {
    /// A request as the scheduler holds it: its handle (which holds the request), the same member as long as the
    /// handle lives. The scheduler's lists and sets are the queue's only record of its requests, so a request that
    /// starts, ends or fails is found without a lookup by ID.
    struct Member: QueueMember {
        let handle: RequestHandle

        var addedOrder: UInt64 { handle.requestID.rawValue }

        static func == (lhs: Member, rhs: Member) -> Bool { lhs.handle === rhs.handle }

        func hash(into hasher: inout Hasher) { hasher.combine(handle.requestID) }
    }

    /// Everything behind the queue's lock.
    struct Shared: Sendable {
        /// The requests added and not yet over, waiting or running, with the rules that schedule them.
        var scheduler: QueueState<Member>
        var preflights: [RequestID: Task<Void, Never>] = [:]
        /// Tasks in ``RequestQueue/waitUntilFinished()``, each with the drain it waits for.
        var waiters: [UInt64: (drain: UInt64, continuation: CheckedContinuation<Void, Never>)] = [:]
        /// The open result sequences, in the order they were taken; only ever appended to, and emptied at a drain.
        /// An array, so that handing them to a finished request costs a retain rather than a copy.
        var streams: [QueueResultBuffer] = []
        var nextToken: UInt64 = 0
        /// Drains so far, counted when the scheduler reports them.
        var drainsAnnounced: UInt64 = 0
        /// Drains whose callbacks have all run: the last job each drain enqueues on the executor counts it.
        var drainsDelivered: UInt64 = 0

        /// The drain a waiter waits for: the next one while requests are outstanding, the last one while its
        /// callbacks are still queued, `nil` when the queue is idle and quiet.
        var drainToWaitFor: UInt64? {
            if scheduler.outstanding > 0 { return drainsAnnounced + 1 }
            return drainsDelivered < drainsAnnounced ? drainsAnnounced : nil
        }
    }

    /// The work the scheduler asked for, with what the lock held.
    struct Work: Sendable {
        var preflights: [RequestHandle] = []
        var starts = InlineList<RequestHandle>()
        var failed: [RequestHandle] = []
        var cancel: [RequestHandle] = []
        var cancelPreflights: [Task<Void, Never>] = []
        /// The drain's number when the scheduler reported one.
        var drained: UInt64?
        var streams: [QueueResultBuffer] = []
    }

    /// Changes the state under the lock and collects the work to do once it is released.
    func modify(_ change: (inout Shared) -> QueueState<Member>.Actions) -> Work {
        shared.withLock { shared in
            let actions = change(&shared)
            var work = Work()
            work.preflights = actions.preflights.map(\.handle)
            work.starts = actions.starts.compactMapInline { $0.handle }
            work.failed = actions.failedWhilePending.map(\.handle)
            for member in actions.cancelRunning {
                if let task = shared.preflights[member.handle.requestID] {
                    work.cancelPreflights.append(task)
                } else {
                    work.cancel.append(member.handle)
                }
            }
            if actions.drained {
                shared.drainsAnnounced += 1
                work.drained = shared.drainsAnnounced
            }
            // Streams end at a drain; they are handed over to get the failures first.
            work.streams = shared.streams
            if actions.drained { shared.streams = [] }
            return work
        }
    }

    /// Carries out scheduler work in order: failures of waiting requests, the drain, cancels, then starts.
    func perform(_ work: Work) {
        for handle in work.failed {
            let error = ClientError(.cancelled, message: "The request was cancelled")
            if let original = handle.queuedRequest {
                report(handle, original, own: handle.callbacks, outcome: .failure(error), streams: work.streams)
            }
            perform(modify { $0.scheduler.pendingFailureReported(Member(handle: handle)) })
        }
        if let drain = work.drained {
            // The executor runs jobs in order, so this one runs after every callback of this drain's requests.
            // Weak: a waiter keeps the queue alive, and without one the job need not.
            let queueFinished = callbacks.queueFinished
            executor.enqueue { [weak self] in
                queueFinished?()
                self?.delivered(drain)
            }
            for stream in work.streams { stream.finish() }
        }
        for handle in work.cancel { handle.cancel() }
        for task in work.cancelPreflights { task.cancel() }
        for handle in work.preflights { startPreflight(handle) }
        for handle in work.starts { startWorker(with: handle) }
    }

    /// Every callback of the drain has run: resumes the tasks waiting for it (or for an earlier one).
    func delivered(_ drain: UInt64) {
        let waiters = shared.withLock { shared in
            shared.drainsDelivered = max(shared.drainsDelivered, drain)
            let due = shared.waiters.filter { $0.value.drain <= drain }
            for token in due.keys { shared.waiters.removeValue(forKey: token) }
            return due.values.map(\.continuation)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// A waiting request's handle was cancelled.
    func cancelWaiting(_ handle: RequestHandle) {
        var actions: QueueState<Member>.Actions?
        let work = modify { shared in
            actions = shared.scheduler.failPending(Member(handle: handle))
            return actions ?? QueueState<Member>.Actions()
        }
        if actions != nil { perform(work) }
    }

    /// Counts the request as over in the totals (complete only when it finished), delivers its last callbacks (its
    /// own, then the queue's) and its result, and marks its handle finished.
    /// - Parameters:
    ///   - handle: The request's handle.
    ///   - original: The request as added.
    ///   - own: The request's callbacks as last read; their delivery reads them again, so one cleared since is not
    ///     called.
    ///   - outcome: The response or the error.
    ///   - streams: The open result sequences.
    /// - Returns: Whether the worker that ran the request must retire (``RequestHandle/markFinished()``).
    @discardableResult
    func report(
        _ handle: RequestHandle, _ original: Request, own: RequestCallbacks?,
        outcome: consuming Result<ClientResponse, ClientError>, streams: [QueueResultBuffer]
    ) -> Bool {
        var finished = false
        if case .success = outcome { finished = true }
        progress.end(handle.requestID, finished: finished)
        // The listeners are checked before the response or error is bound: binding copies a whole `ClientResponse`,
        // which is a retain of each of its parts, for nobody when no callback is set.
        if callbacks.requestFinished != nil || own?.finished != nil, case .success(let response) = outcome {
            deliver(
                handle, when: { $0.finished != nil }, { $0.finished?(response) },
                queued: callbacks.requestFinished != nil, { $0.requestFinished?(original, response) })
        } else if callbacks.requestFailed != nil || own?.failed != nil, case .failure(let error) = outcome {
            deliver(
                handle, when: { $0.failed != nil }, { $0.failed?(error) },
                queued: callbacks.requestFailed != nil, { $0.requestFailed?(original, error) })
        }
        let result = QueueResult(requestID: handle.requestID, request: original, result: outcome)
        // The last (usually the only) sequence takes the result itself, the others a copy.
        for stream in streams.dropLast() { stream.yield(result) }
        streams.last?.yield(consume result)
        return handle.markFinished()
    }

    /// Runs a request's own callback, then the queue's, on the executor; enqueues nothing when neither is set.
    func deliver(
        _ handle: RequestHandle,
        when ownIsSet: (RequestCallbacks) -> Bool,
        _ own: @escaping @Sendable (RequestCallbacks) -> Void,
        queued queuedIsSet: Bool,
        _ queued: @escaping @Sendable (QueueCallbacks) -> Void
    ) {
        guard queuedIsSet || handle.callbacks.map(ownIsSet) == true else { return }
        let callbacks = self.callbacks
        executor.enqueue {
            if let mine = handle.callbacks { own(mine) }
            queued(callbacks)
        }
    }
}
