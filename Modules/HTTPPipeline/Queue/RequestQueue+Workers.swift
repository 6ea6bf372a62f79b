import HTTPCore
import Synchronization

extension RequestQueue {
    /// Starts a worker task with `first` (Docs/Decisions/0035-queue-workers.md): it runs that request, then the one
    /// the scheduler starts when it ends, and so on, and ends when the scheduler has nothing for it. So a queue has
    /// at most as many tasks as it runs requests, and a request costs no task of its own.
    ///
    /// A queue that runs several requests at once keeps the transport busy, so its workers run on the transport's
    /// ``Transport/workerTaskExecutor`` (the event loop), where each request runs without a hop there and back; the
    /// results reach their reader through the transport's hand-off (``QueueResultBuffer``). A queue that runs one
    /// request at a time is a lone request: its worker starts where `Client.send` would run it (decision 0022).
    func startWorker(with first: RequestHandle) {
        let worker = QueueWorker()
        worker.attach(
            Task(executorPreference: workerExecutor) { [self] in
                var next: RequestHandle? = first
                while let handle = next {
                    next = await run(handle, on: worker)
                }
                worker.finished()
            })
    }

    /// Where the queue's workers run: see ``startWorker(with:)``.
    private var workerExecutor: (any TaskExecutor)? {
        guard client.configuration.runsOnTransportExecutor else { return nil }
        return runsWorkersOnTransport ? client.transport.workerTaskExecutor : client.transportExecutor
    }

    /// Whether the workers run on the transport's ``Transport/workerTaskExecutor`` (a width above 1).
    private var runsWorkersOnTransport: Bool {
        client.configuration.runsOnTransportExecutor && configuration.maxConcurrentRequests > 1
            && client.transport.workerTaskExecutor != nil
    }

    /// The executor a results sequence wakes its reader through: the transport's hand-off when the workers run on
    /// its loop, so that one wake-up carries a round's results; `nil` (a wake-up per result) otherwise, where a
    /// wake-up sent through the loop would cost a hop there and back.
    var resultsHandOff: (any TaskExecutor)? {
        runsWorkersOnTransport ? client.transport.handOffTaskExecutor : nil
    }

    /// Runs one request on `worker`, reports it, and carries out what its end asks of the scheduler.
    ///
    /// Inlined into the worker's loop, so that its locals live in the worker's frame, allocated once per worker,
    /// instead of a frame of its own per request (Docs/Decisions/0035-queue-workers.md, addendum).
    /// - Returns: The request this worker runs next: the first the scheduler started as this one ended, unless the
    ///   worker was cancelled with its request (then a new worker takes it).
    @inline(__always)
    func run(_ handle: RequestHandle, on worker: QueueWorker) async -> RequestHandle? {
        let (request, sends, own) = handle.begin(on: worker)
        guard let original = request else {
            // Over already, so never reported again; only its slot is left to free.
            perform(modify { $0.scheduler.ended(Member(handle: handle), failed: true) })
            return nil
        }
        let outcome: Result<ClientResponse, ClientError>
        if sends {
            outcome = await send(original, for: handle, own: own)
        } else {
            outcome = .failure(ClientError(.cancelled, message: "The request was cancelled"))
        }
        // Reported before the scheduler hears of the end, so that the drain (which ends the result sequences) comes
        // after every request's result.
        let streams = shared.withLock { $0.streams }
        var failed = false
        if case .failure = outcome { failed = true }
        let retires = report(handle, original, own: own, outcome: consume outcome, streams: streams)
        var work = modify { $0.scheduler.ended(Member(handle: handle), failed: failed) }
        var next: RequestHandle?
        if !retires, !Task.isCancelled { next = work.starts.popFirst() }
        perform(work)
        return next
    }

    /// Sends the request through the client, with the pipeline events and data handler its callbacks ask for.
    @inline(__always)
    private func send(
        _ original: Request, for handle: RequestHandle, own: RequestCallbacks?
    ) async -> Result<ClientResponse, ClientError> {
        let (events, onData) = pipelineEvents(for: handle, original, own: own)
        do {
            let response = try await client.send(
                sent(original), id: handle.requestID, events: events, onData: onData)
            return .success(response)
        } catch {
            return .failure(ClientError.wrapping(error))
        }
    }

    /// The request as it is sent: its progress also goes to the queue when the queue counts bytes or has a sink.
    private func sent(_ original: Request) -> Request {
        guard progress.wantsRequestEvents else { return original }
        var request = original
        request.options.progress = QueueMemberSink(own: original.options.progress, progress: progress)
        return request
    }

    /// The pipeline events and data handler of a request: only the events someone listens to get a closure. A
    /// request's callbacks can be cleared but never added, so what is unset now stays unset, and a queue without
    /// callbacks allocates nothing for them.
    @inline(never)
    private func pipelineEvents(
        for handle: RequestHandle, _ original: Request, own: RequestCallbacks?
    ) -> (PipelineEvents, (@Sendable ([UInt8]) -> Void)?) {
        let queued = callbacks
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
        return (events, onData)
    }

    /// Sends the `HEAD` pre-flight of a `GET` in its own task and sizes the request's download from the answer.
    ///
    /// A pre-flight that fails (an error, not a status) neither fails its request nor the queue: the request
    /// counts as one unit, as one of unknown size does, and its `GET` is still sent (ASIHTTPRequest's
    /// `showAccurateProgress`, which sent the `GET` whatever became of the `HEAD`). Pre-flights are few (accurate
    /// progress only, once per `GET` added while suspended), so each keeps a task of its own that `cancelAll()`
    /// reaches.
    func startPreflight(_ handle: RequestHandle) {
        let id = handle.requestID
        guard var head = handle.queuedRequest else {
            // Failed while its pre-flight was being started: the pre-flight's slot is free at once.
            perform(modify { $0.scheduler.preflightEnded(Member(handle: handle)) })
            return
        }
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
                        return shared.scheduler.preflightEnded(Member(handle: handle))
                    })
            }
        }
    }
}
