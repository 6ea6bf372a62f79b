public import Dispatch
public import HTTPCore

extension Client {
    /// The default executor for callbacks: one serial queue shared by all clients.
    public static let callbackQueue = DispatchQueue(label: "asikit.callbacks")

    /// Starts a request in the background and reports through callbacks (ASIHTTPRequest's
    /// `startAsynchronous` with a delegate or blocks).
    ///
    /// Callbacks run on `executor` in the order described in ``RequestCallbacks``; exactly one of `finished` or
    /// `failed` is called, unless ``RequestHandle/clearCallbacksAndCancel()`` came first.
    /// - Parameters:
    ///   - request: The request.
    ///   - callbacks: What to call as the request progresses.
    ///   - executor: Where to call it; ``callbackQueue`` by default.
    /// - Returns: A handle to cancel or await the request.
    @discardableResult
    public func start(
        _ request: Request,
        callbacks: RequestCallbacks,
        on executor: any CallbackExecutor = Client.callbackQueue
    ) -> RequestHandle {
        let handle = RequestHandle(requestID: .next(), callbacks: callbacks)
        let deliver: @Sendable (@escaping @Sendable (RequestCallbacks) -> Void) -> Void = { call in
            executor.enqueue {
                if let callbacks = handle.callbacks { call(callbacks) }
            }
        }
        let events = PipelineEvents(
            started: { request in deliver { $0.started?(request) } },
            receivedHead: { head in deliver { $0.receivedResponseHead?(head) } },
            willRedirect: { url in deliver { $0.willRedirect?(url) } })
        var onData: (@Sendable ([UInt8]) -> Void)?
        if callbacks.receivedData != nil {
            onData = { @Sendable chunk in deliver { $0.receivedData?(chunk) } }
        }
        let client = self
        let dataHandler = onData
        // The caller is not in an async context; see Docs/Decisions/0002-unstructured-tasks.md.
        let task = Task {
            do {
                let response = try await client.send(request, id: handle.requestID, events: events, onData: dataHandler)
                deliver { $0.finished?(response) }
            } catch {
                let failure = ClientError.wrapping(error)
                deliver { $0.failed?(failure) }
            }
            handle.markFinished()
        }
        handle.attach(task)
        return handle
    }
}
