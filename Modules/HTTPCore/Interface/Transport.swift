/// Sends one request over the network and returns the response head with a streaming body.
///
/// A transport does one exchange and nothing more: redirects, retries, cookies, credentials, caching and content
/// decoding belong to the pipeline (`HTTPPipeline`), which calls the transport once per hop or attempt.
///
/// ## Implementation requirements
/// - Serialise the request as given. Add only what the wire format needs: `Host`, and `Content-Length` or
///   `Transfer-Encoding: chunked` from ``RequestBody/length``.
/// - Honour ``RequestOptions/timeout`` as an inactivity timeout and ``RequestOptions/connectTimeout``; throw
///   ``ClientError`` with ``ClientError/Code/timedOut`` when they expire.
/// - Honour task cancellation at every await: close the connection, free its resources, and rethrow
///   `CancellationError`.
/// - Report body bytes to ``RequestContext/progress`` as they go out and come in.
/// - Throw ``ClientError`` with a transport ``ClientError/Code`` (`connectFailed`, `nameResolutionFailed`,
///   `sendFailed`, `receiveFailed`, `emptyResponse`, `incompleteBody`, `tlsHandshakeFailed`, `certificateInvalid`,
///   `protocolViolation`, `timedOut`) and put the backend's own error in ``ClientError/underlying``.
/// - An HTTP error status is a normal response, and so is a proxy's `407`.
/// - Never let a `Proxy-Authorization` field reach an origin: drop one the caller set on a direct route, in a
///   `CONNECT` tunnel and on any route but a plain HTTP proxy, and send ``RequestContext/proxyAuthorization`` only
///   to the proxy it ``ProxyAuthorization/applies(to:)`` (with the request, or with `CONNECT`). Set
///   ``Response/route`` to the route the response came through, and ``Response/isFromProxy`` when the proxy
///   produced or relayed it (a plain HTTP proxy, or its answer to `CONNECT`; never a response from inside a
///   tunnel): only then is a 407 the proxy's challenge.
/// - A transport that takes a ``ProxyResolver`` tries its routes in order, going on to the next only when a
///   connection could not be opened (before any byte of the request was sent), and pools connections per route.
/// - ``PluginLifecycle/shutdown()`` closes idle connections and frees resources; it is idempotent.
/// - ``preferredTaskExecutor``, ``workerTaskExecutor`` and ``handOffTaskExecutor`` are optional. They are read once
///   per request (or per queue worker), from any thread, so they must be cheap and never block. A transport that
///   wraps another forwards them.
///
/// ## Implement a custom transport
/// ```swift
/// struct CannedTransport: Transport {
///     func send(_ request: Request, context: RequestContext) async throws -> Response {
///         Response(status: .ok, body: ResponseBody(bytes: Array("hello".utf8)))
///     }
/// }
/// let client = Client(transport: CannedTransport())
/// ```
public protocol Transport: PluginLifecycle {
    /// Sends a request and returns once the response head has arrived; the body streams.
    /// - Parameters:
    ///   - request: The request to send.
    ///   - context: Progress sink, bandwidth limiter and logger for this attempt.
    /// - Returns: The response head and its body.
    /// - Throws: ``ClientError`` or `CancellationError`.
    func send(_ request: Request, context: RequestContext) async throws -> Response

    /// The executor on which the transport resumes tasks waiting for its sockets, if it has one; the pipeline
    /// runs each request with it as the task's executor preference (unless
    /// `Client.Configuration.runsOnTransportExecutor` is `false`), so a resumed wait costs no hop to another
    /// thread. `nil` (the default) leaves requests on the caller's executor.
    var preferredTaskExecutor: (any TaskExecutor)? { get }

    /// An executor through which a request that ran on ``preferredTaskExecutor`` goes back to its caller's
    /// executor, if the transport has one; the pipeline then prefers it around the request (outside
    /// ``preferredTaskExecutor``), so the task's hop back when the request ends is enqueued here instead of on the
    /// global concurrent executor, and the transport can hand several callers back at once. It must run what it gets
    /// where the task's next step wants it: a task leaving ``preferredTaskExecutor`` on the caller's (global)
    /// executor, any other on ``preferredTaskExecutor``. `nil` (the default) lets the runtime hop back by itself.
    var handOffTaskExecutor: (any TaskExecutor)? { get }

    /// The executor for a task that sends one request after another while others are in flight (a
    /// `RequestQueue`'s workers, when the queue runs more than one request at a time), if the transport has one.
    /// Unlike ``preferredTaskExecutor``, which may offer nothing while the transport is idle (a lone request), it
    /// does not depend on what is in flight at the moment it is read: such a task keeps the transport busy. Such a
    /// task then sends its requests without a hop per request; what it hands to other tasks should go through
    /// ``handOffTaskExecutor``. The default is ``preferredTaskExecutor``.
    var workerTaskExecutor: (any TaskExecutor)? { get }
}

extension Transport {
    /// No executor of its own: requests run where the caller's task runs.
    public var preferredTaskExecutor: (any TaskExecutor)? { nil }

    /// No hand-off: a request leaving ``preferredTaskExecutor`` hops straight to its caller's executor.
    public var handOffTaskExecutor: (any TaskExecutor)? { nil }

    /// What ``preferredTaskExecutor`` offers now.
    public var workerTaskExecutor: (any TaskExecutor)? { preferredTaskExecutor }
}
