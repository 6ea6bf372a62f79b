public import HTTPCore

extension Client {
    /// Sends a request and returns the final response with its body in memory (ASIHTTPRequest's default).
    ///
    /// Redirects, cookies, authentication challenges, cache lookups and retries after a timeout happen on the
    /// way. An HTTP error status (404, 500, ...) is returned normally; only a 401 that no credential can
    /// answer throws.
    /// - Parameter request: The request.
    /// - Returns: The final response.
    /// - Throws: ``ClientError``, or `CancellationError` when the task is cancelled.
    public func send(_ request: Request) async throws -> ClientResponse {
        try await send(request, id: .next(), events: PipelineEvents(), onData: nil)
    }

    /// Sends a request and returns the final response as soon as its head has arrived; the body streams.
    ///
    /// Use it for large bodies or to process data as it arrives (ASIHTTPRequest's `request:didReceiveData:`).
    /// Retries after a timeout cover the wait for the head only. Nothing is buffered or written to a file
    /// (``RequestOptions/download`` does not apply); a compressed body arrives inflated when
    /// ``RequestOptions/inflatesWhenComplete`` is `false`, and as sent otherwise.
    /// - Parameter request: The request.
    /// - Returns: The final response, its body still to be read.
    /// - Throws: ``ClientError``, or `CancellationError` when the task is cancelled.
    public func stream(_ request: Request) async throws -> StreamingResponse {
        let id = RequestID.next()
        let response = try await onTransportExecutor {
            try await RequestPipeline(client: self)
                .run(request, id: id, originalURL: request.url, events: PipelineEvents()) { $0 }
        }
        let body = ResponseBody(
            expectedLength: response.body.expectedLength, source: TransportStagedBodySource(base: response.body.source))
        let plan = DecodingPlan.plan(for: response, reader: .stream, codecs: codecs)
        return StreamingResponse(
            head: response.head, body: try plan.streaming(body, codecs: codecs), info: response.info)
    }

    /// Runs the pipeline and reads the body; a body that times out is sent again by the pipeline's retry loop
    /// while retries remain. With `onData`, chunks go to it and are not kept.
    func send(
        _ request: Request,
        id: RequestID,
        events: PipelineEvents,
        onData: (@Sendable ([UInt8]) -> Void)?
    ) async throws -> ClientResponse {
        // A lone request stays where it is (no closure, no executor switch), and so does a caller that already prefers
        // the loop (the hand-off would move it off and back); one that joins a busy loop runs there.
        guard let executor = transportExecutor, !Self.isPreferred(executor) else {
            return try await runAndRead(request, id: id, events: events, onData: onData)
        }
        return try await runAndRead(request, id: id, events: events, onData: onData, on: executor)
    }

    /// Runs and reads the request with `executor` as the task's preference. Leaving it goes through the transport's
    /// hand-off, which sends a round's callers back together. Out of line, so a lone request's frame holds none of
    /// this.
    @inline(never)
    private func runAndRead(
        _ request: Request,
        id: RequestID,
        events: PipelineEvents,
        onData: (@Sendable ([UInt8]) -> Void)?,
        on executor: any TaskExecutor
    ) async throws -> ClientResponse {
        if let handOff = transport.handOffTaskExecutor {
            // Non-sending: no hop between the two preferences, so the task's one hop goes onto the loop.
            let onLoop: nonisolated(nonsending) () async throws -> ClientResponse = {
                try await withTaskExecutorPreference(executor) {
                    try await runAndRead(request, id: id, events: events, onData: onData)
                }
            }
            return try await withTaskExecutorPreference(handOff, operation: onLoop)
        }
        return try await withTaskExecutorPreference(executor) {
            try await runAndRead(request, id: id, events: events, onData: onData)
        }
    }

    /// Whether the current task already prefers `executor` (a caller inside `withTaskExecutorPreference` of it, or a
    /// queue worker started on it).
    private static func isPreferred(_ executor: any TaskExecutor) -> Bool {
        withUnsafeCurrentTask { $0?.unownedTaskExecutor == executor.asUnownedTaskExecutor() }
    }

    @inline(__always)
    private func runAndRead(
        _ request: Request,
        id: RequestID,
        events: PipelineEvents,
        onData: (@Sendable ([UInt8]) -> Void)?
    ) async throws -> ClientResponse {
        try await RequestPipeline(client: self).run(request, id: id, originalURL: request.url, events: events) {
            try await ResponseReader(client: self, onData: onData).read($0)
        }
    }

    /// Runs `operation` with the transport's executor as the task's preference, when it has one and
    /// ``Configuration/runsOnTransportExecutor`` is on.
    func onTransportExecutor<T: Sendable>(_ operation: () async throws -> T) async throws -> T {
        guard let executor = transportExecutor else { return try await operation() }
        return try await withTaskExecutorPreference(executor, operation: operation)
    }

    /// The executor a request should run on now: the transport's, when it offers one and
    /// ``Configuration/runsOnTransportExecutor`` is on; otherwise `nil`, the caller's.
    var transportExecutor: (any TaskExecutor)? {
        configuration.runsOnTransportExecutor ? transport.preferredTaskExecutor : nil
    }
}

/// Names the transport as the stage of errors thrown while a streamed body is read.
final class TransportStagedBodySource: ResponseBodySource {
    private let base: any ResponseBodySource

    init(base: any ResponseBodySource) {
        self.base = base
    }

    func next() async throws -> [UInt8]? {
        try await staged(.transport) { try await base.next() }
    }

    func discard() async {
        await base.discard()
    }

    var trailers: HTTPFields? { base.trailers }
}
