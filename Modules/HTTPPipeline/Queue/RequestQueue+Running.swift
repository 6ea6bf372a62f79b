import FoundationEssentials
import HTTPCore
import Synchronization

extension RequestQueue {
    /// A request as the queue keeps it; a class, so that the queue's dictionary holds references rather than
    /// request-sized slots (most of a queue's memory while thousands wait).
    final class Entry: Sendable {
        /// As the caller added it; what callbacks and results show.
        let original: Request
        let handle: RequestHandle

        init(original: Request, handle: RequestHandle) {
            self.original = original
            self.handle = handle
        }

        /// The request as it is sent: its progress also goes to the queue when the queue counts bytes or has a sink.
        func sent(reportingTo progress: QueueProgress) -> Request {
            guard progress.wantsRequestEvents else { return original }
            var request = original
            request.options.progress = QueueMemberSink(own: original.options.progress, progress: progress)
            return request
        }
    }

    /// Everything behind the queue's lock.
    struct Shared: Sendable {
        var scheduler: QueueState
        var entries: [RequestID: Entry] = [:]
        var preflights: [RequestID: Task<Void, Never>] = [:]
        /// Tasks in ``RequestQueue/waitUntilFinished()``, each with the drain it waits for.
        var waiters: [UInt64: (drain: UInt64, continuation: CheckedContinuation<Void, Never>)] = [:]
        /// The open result sequences, in the order they were taken; only ever appended to, and emptied at a drain.
        /// An array, so that handing them to a finished request costs a retain rather than a copy.
        var streams: [AsyncStream<QueueResult>.Continuation] = []
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
        var preflights: [Entry] = []
        var starts: [Entry] = []
        var failed: [Entry] = []
        var cancel: [RequestHandle] = []
        var cancelPreflights: [Task<Void, Never>] = []
        /// The drain's number when the scheduler reported one.
        var drained: UInt64?
        var streams: [AsyncStream<QueueResult>.Continuation] = []
    }

    /// Changes the state under the lock and collects the work to do once it is released.
    func modify(_ change: (inout Shared) -> QueueState.Actions) -> Work {
        shared.withLock { shared in
            let actions = change(&shared)
            var work = Work()
            work.preflights = actions.preflights.compactMap { shared.entries[$0] }
            work.starts = actions.starts.compactMap { shared.entries[$0] }
            work.failed = actions.failedWhilePending.compactMap { shared.entries.removeValue(forKey: $0) }
            for id in actions.cancelRunning {
                if let task = shared.preflights[id] {
                    work.cancelPreflights.append(task)
                } else if let entry = shared.entries[id] {
                    work.cancel.append(entry.handle)
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
        for entry in work.failed {
            let error = ClientError(.cancelled, message: "The request was cancelled")
            report(entry, outcome: .failure(error), streams: work.streams)
            let id = entry.handle.requestID
            perform(modify { $0.scheduler.pendingFailureReported(id) })
        }
        if let drain = work.drained {
            // The executor runs jobs in order, so this one runs after every callback of this drain's requests.
            // Weak: a waiter keeps the queue alive, and without one the job need not.
            let queueFinished = callbacks.queueFinished
            executor.enqueue { [weak self] in
                queueFinished?()
                self?.delivered(drain)
            }
            for continuation in work.streams { continuation.finish() }
        }
        for handle in work.cancel { handle.cancel() }
        for task in work.cancelPreflights { task.cancel() }
        for entry in work.preflights { startPreflight(entry) }
        for entry in work.starts { start(entry) }
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
    func cancelWaiting(_ id: RequestID) {
        var actions: QueueState.Actions?
        let work = modify { shared in
            actions = shared.scheduler.failPending(id)
            return actions ?? QueueState.Actions()
        }
        if actions != nil { perform(work) }
    }

    /// Counts the request as over in the totals (complete only when it finished), delivers its last callbacks (its
    /// own, then the queue's) and its result.
    func report(
        _ entry: Entry, outcome: Result<ClientResponse, ClientError>,
        streams: [AsyncStream<QueueResult>.Continuation]
    ) {
        progress.end(entry.handle.requestID, finished: (try? outcome.get()) != nil)
        let original = entry.original
        let own = entry.handle.callbacks
        switch outcome {
        case .success(let response) where callbacks.requestFinished != nil || own?.finished != nil:
            deliver(
                entry.handle, when: { $0.finished != nil }, { $0.finished?(response) },
                queued: callbacks.requestFinished != nil, { $0.requestFinished?(original, response) })
        case .failure(let error) where callbacks.requestFailed != nil || own?.failed != nil:
            deliver(
                entry.handle, when: { $0.failed != nil }, { $0.failed?(error) },
                queued: callbacks.requestFailed != nil, { $0.requestFailed?(original, error) })
        default:
            break  // nobody listens: no closure to allocate
        }
        let result = QueueResult(requestID: entry.handle.requestID, request: original, result: outcome)
        for continuation in streams { continuation.yield(result) }
        entry.handle.markFinished()
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

    /// Starts a request in its own task (Docs/Decisions/0002-unstructured-tasks.md), owned by its handle.
    func start(_ entry: Entry) {
        let handle = entry.handle
        let original = entry.original
        let queued = callbacks
        // Only the events someone listens to get a closure: a request's callbacks can be cleared but never added,
        // so what is unset now stays unset, and a queue without callbacks allocates nothing for them.
        let own = handle.callbacks
        var events = PipelineEvents()
        if queued.requestStarted != nil || own?.started != nil {
            events.started = { [self] _ in
                deliver(
                    handle, when: { $0.started != nil }, { $0.started?(original) },
                    queued: queued.requestStarted != nil, { $0.requestStarted?(original) })
            }
        }
        if queued.receivedResponseHead != nil || own?.receivedResponseHead != nil {
            events.receivedHead = { [self] head in
                deliver(
                    handle, when: { $0.receivedResponseHead != nil }, { $0.receivedResponseHead?(head) },
                    queued: queued.receivedResponseHead != nil, { $0.receivedResponseHead?(original, head) })
            }
        }
        if queued.requestWillRedirect != nil || own?.willRedirect != nil {
            events.willRedirect = { [self] url in
                deliver(
                    handle, when: { $0.willRedirect != nil }, { $0.willRedirect?(url) },
                    queued: queued.requestWillRedirect != nil, { $0.requestWillRedirect?(original, url) })
            }
        }
        var onData: (@Sendable ([UInt8]) -> Void)?
        if own?.receivedData != nil {
            onData = { @Sendable [self] chunk in
                deliver(handle, when: { _ in true }, { $0.receivedData?(chunk) }, queued: false, { _ in })
            }
        }
        let request = entry.sent(reportingTo: progress)
        let dataHandler = onData
        // Started on the transport's executor when it offers one, so the task does not hop there at its first await.
        let task = Task(executorPreference: client.transportExecutor) { [self] in
            let outcome: Result<ClientResponse, ClientError>
            do {
                try Task.checkCancellation()
                outcome = .success(
                    try await client.send(
                        request, id: handle.requestID, events: events,
                        onData: dataHandler))
            } catch {
                outcome = .failure(ClientError.wrapping(error))
            }
            let streams = shared.withLock { shared in
                shared.entries.removeValue(forKey: handle.requestID)
                return shared.streams
            }
            report(entry, outcome: outcome, streams: streams)
            let failed: Bool
            if case .failure = outcome { failed = true } else { failed = false }
            perform(modify { $0.scheduler.ended(handle.requestID, failed: failed) })
        }
        handle.attach(task)
    }

    /// Sends the `HEAD` pre-flight of a `GET` in its own task and sizes the request's download from the answer.
    ///
    /// A pre-flight that fails (an error, not a status) neither fails its request nor the queue: the request
    /// counts as one unit, as one of unknown size does, and its `GET` is still sent (ASIHTTPRequest's
    /// `showAccurateProgress`, which sent the `GET` whatever became of the `HEAD`).
    func startPreflight(_ entry: Entry) {
        let id = entry.handle.requestID
        var head = entry.original
        head.method = .head
        head.body = nil
        head.options.progress = nil
        let probe = head
        // Registered under the lock before it can end, so that its end always finds (and removes) it.
        shared.withLock { shared in
            shared.preflights[id] = Task {
                var length: Int64?
                do {
                    try Task.checkCancellation()
                    let response = try await client.send(probe, id: .next(), events: PipelineEvents(), onData: nil)
                    if (200..<300).contains(response.status.code) {
                        length = response.headerFields[.contentLength].flatMap { Int64($0) }
                    }
                } catch {
                    // A failed HEAD says nothing about the GET: the request counts as one unit and still runs.
                    // A pre-flight cancelled because its request failed finds no request left to size.
                }
                progress.presize(id, length: length)
                perform(
                    modify { shared in
                        shared.preflights.removeValue(forKey: id)
                        return shared.scheduler.preflightEnded(id)
                    })
            }
        }
    }
}
