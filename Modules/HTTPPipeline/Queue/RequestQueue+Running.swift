import FoundationEssentials
import HTTPCore
import Synchronization

extension RequestQueue {
    /// A request as the queue keeps it.
    struct Entry: Sendable {
        /// As the caller added it; what callbacks and results show.
        let original: Request
        /// As it is sent: its progress also goes to the queue.
        let sent: Request
        let handle: RequestHandle
    }

    /// Everything behind the queue's lock.
    struct Shared: Sendable {
        var scheduler: QueueState
        var entries: [RequestID: Entry] = [:]
        var preflights: [RequestID: Task<Void, Never>] = [:]
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var streams: [UInt64: AsyncStream<QueueResult>.Continuation] = [:]
        var nextToken: UInt64 = 0
    }

    /// The work the scheduler asked for, with what the lock held.
    struct Work: Sendable {
        var preflights: [Entry] = []
        var starts: [Entry] = []
        var failed: [Entry] = []
        var cancel: [RequestHandle] = []
        var cancelPreflights: [Task<Void, Never>] = []
        var drained = false
        var waiters: [CheckedContinuation<Void, Never>] = []
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
                work.drained = true
                work.waiters = Array(shared.waiters.values)
                shared.waiters = [:]
            }
            // Streams end at a drain; they are handed over to get the failures first.
            work.streams = Array(shared.streams.values)
            if actions.drained { shared.streams = [:] }
            return work
        }
    }

    /// Carries out scheduler work in order: failures of waiting requests, the drain, cancels, then starts.
    func perform(_ work: Work, firstError: (RequestID, ClientError)? = nil) {
        for entry in work.failed {
            let error = firstError.flatMap { $0.0 == entry.handle.requestID ? $0.1 : nil }
                ?? ClientError(.cancelled, message: "The request was cancelled")
            report(entry, outcome: .failure(error), streams: work.streams)
        }
        if work.drained {
            let callbacks = self.callbacks
            executor.enqueue { callbacks.queueFinished?() }
            for continuation in work.streams { continuation.finish() }
            for waiter in work.waiters { waiter.resume() }
        }
        for handle in work.cancel { handle.cancel() }
        for task in work.cancelPreflights { task.cancel() }
        for entry in work.preflights { startPreflight(entry) }
        for entry in work.starts { start(entry) }
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

    /// Counts the request as over, delivers its last callbacks (its own, then the queue's) and its result.
    func report(_ entry: Entry, outcome: Result<ClientResponse, ClientError>,
                streams: [AsyncStream<QueueResult>.Continuation]) {
        progress.complete(entry.handle.requestID)
        let original = entry.original
        switch outcome {
        case .success(let response):
            deliver(entry.handle, { $0.finished?(response) }, { $0.requestFinished?(original, response) })
        case .failure(let error):
            deliver(entry.handle, { $0.failed?(error) }, { $0.requestFailed?(original, error) })
        }
        let result = QueueResult(requestID: entry.handle.requestID, request: original, result: outcome)
        for continuation in streams { continuation.yield(result) }
    }

    /// Runs a request's own callback, then the queue's, on the executor.
    func deliver(
        _ handle: RequestHandle,
        _ own: @escaping @Sendable (RequestCallbacks) -> Void,
        _ queued: @escaping @Sendable (QueueCallbacks) -> Void
    ) {
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
        let events = PipelineEvents(
            started: { [self] _ in deliver(handle, { $0.started?(original) }, { $0.requestStarted?(original) }) },
            receivedHead: { [self] head in
                deliver(handle, { $0.receivedResponseHead?(head) }, { $0.receivedResponseHead?(original, head) })
            },
            willRedirect: { [self] url in
                deliver(handle, { $0.willRedirect?(url) }, { $0.requestWillRedirect?(original, url) })
            })
        var onData: (@Sendable ([UInt8]) -> Void)?
        if handle.callbacks?.receivedData != nil {
            onData = { @Sendable [self] chunk in deliver(handle, { $0.receivedData?(chunk) }, { _ in }) }
        }
        let dataHandler = onData
        let task = Task {
            let outcome: Result<ClientResponse, ClientError>
            do {
                try Task.checkCancellation()
                outcome = .success(try await client.send(entry.sent, id: handle.requestID, events: events,
                                                         onData: dataHandler))
            } catch {
                outcome = .failure(ClientError.wrapping(error))
            }
            let streams = shared.withLock { shared in
                shared.entries.removeValue(forKey: handle.requestID)
                return Array(shared.streams.values)
            }
            report(entry, outcome: outcome, streams: streams)
            let failed: Bool
            if case .failure = outcome { failed = true } else { failed = false }
            perform(modify { $0.scheduler.ended(handle.requestID, failed: failed) })
        }
        handle.attach(task)
    }

    /// Sends the `HEAD` pre-flight of a `GET` in its own task, sizes the request's download from the answer,
    /// and fails the request when the pre-flight fails.
    func startPreflight(_ entry: Entry) {
        let id = entry.handle.requestID
        var head = entry.original
        head.method = .head
        head.body = nil
        head.options.progress = nil
        let probe = head
        // Registered under the lock before it can end, so that its end always finds (and removes) it.
        shared.withLock { shared in shared.preflights[id] = Task {
            var failure: ClientError?
            do {
                try Task.checkCancellation()
                let response = try await client.send(probe, id: .next(), events: PipelineEvents(), onData: nil)
                let length = response.headerFields[.contentLength].flatMap { Int64($0) }
                progress.presize(id, length: (200..<300).contains(response.status.code) ? length : nil)
            } catch {
                failure = ClientError.wrapping(error)
            }
            if let failure {
                perform(modify { $0.scheduler.failPending(id) ?? QueueState.Actions() }, firstError: (id, failure))
            }
            perform(modify { shared in
                shared.preflights.removeValue(forKey: id)
                return shared.scheduler.preflightEnded(id)
            })
        } }
    }
}
