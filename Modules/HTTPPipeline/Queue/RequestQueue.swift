public import HTTPCore
import Synchronization

/// Runs requests a few at a time and reports on them as a group (ASIHTTPRequest's `ASINetworkQueue`).
///
/// A queue starts suspended: add requests, then call ``go()``. At most
/// ``Configuration/maxConcurrentRequests`` run at once; the rest wait in the order they were added. Requests
/// added to a running queue start as soon as there is room.
///
/// ```swift
/// let queue = RequestQueue(client: client, callbacks: QueueCallbacks(
///     requestFinished: { request, response in print(request.url, response.status) },
///     queueFinished: { print("all done") }))
/// for url in urls { queue.add(Request(url: url)) }
/// let results = queue.results      // subscribe before go() to see every result
/// queue.go()
/// for await result in results { print(try result.response().status) }
/// ```
///
/// A failure (a cancel included) cancels every other request unless ``Configuration/cancelsAllOnFailure`` is
/// off; the cancelled requests report ``ClientError/Code/cancelled``. ``QueueCallbacks/queueFinished`` runs once
/// per drain, after every request's own callbacks. Progress: see ``Configuration/progress`` and
/// ``Configuration/showsAccurateProgress``.
public final class RequestQueue: Sendable {
    /// The queue's ID: the ``ProgressEvent/requestID`` of its total progress events.
    public let id: RequestID
    /// The client the requests are sent with.
    public let client: Client
    /// The queue's settings.
    public let configuration: Configuration

    let callbacks: QueueCallbacks
    let executor: any CallbackExecutor
    let progress: QueueProgress
    let shared: Mutex<Shared>

    /// Creates a suspended queue.
    /// - Parameters:
    ///   - client: Sends the requests.
    ///   - configuration: Width, failure policy and progress.
    ///   - callbacks: The queue-level callbacks.
    ///   - executor: Where the callbacks (the queue's and the requests' own) run; ``Client/callbackQueue`` by
    ///     default.
    public init(
        client: Client,
        configuration: Configuration = Configuration(),
        callbacks: QueueCallbacks = QueueCallbacks(),
        on executor: any CallbackExecutor = Client.callbackQueue
    ) {
        precondition(configuration.maxConcurrentRequests >= 1, "A RequestQueue runs at least one request at a time")
        self.id = .next()
        self.client = client
        self.configuration = configuration
        self.callbacks = callbacks
        self.executor = executor
        self.progress = QueueProgress(
            queueID: id, isAccurate: configuration.showsAccurateProgress,
            sink: configuration.progress)
        self.shared = Mutex(
            Shared(
                scheduler: QueueState(
                    width: configuration.maxConcurrentRequests,
                    cancelsAllOnFailure: configuration.cancelsAllOnFailure)))
    }

    deinit {
        // Only waiting requests can remain (a running one's worker keeps the queue alive): they will never run, so
        // their handles' waits and the result sequences end here, without callbacks.
        let (waiting, streams) = shared.withLock { ($0.scheduler.waiting, $0.streams) }
        for member in waiting { member.handle.markFinished() }
        for stream in streams { stream.finish() }
    }

    /// Adds a request (ASINetworkQueue's `addOperation:`). It starts once the queue runs and there is room.
    ///
    /// In accurate-progress mode, a `GET` added while the queue is suspended is preceded by a `HEAD` request
    /// to the same URL that sizes the total. A `HEAD` that fails fails nothing: the `GET` is still sent, and the
    /// request counts as one unit in the total, like a request of unknown size.
    /// - Parameters:
    ///   - request: The request.
    ///   - callbacks: The request's own callbacks; they run before the queue's.
    /// - Returns: A handle to cancel the request, waiting or running, or to wait for it.
    @discardableResult
    public func add(_ request: Request, callbacks: RequestCallbacks = RequestCallbacks()) -> RequestHandle {
        let handle = RequestHandle(requestID: .next(), callbacks: callbacks, queued: request, in: self)
        progress.add(request, id: handle.requestID)
        let work = modify { shared in
            let preflight =
                configuration.showsAccurateProgress && shared.scheduler.isSuspended
                && request.method == .get
            return shared.scheduler.add(Member(handle: handle), preflight: preflight)
        }
        perform(work)
        return handle
    }

    /// Starts the queue (ASINetworkQueue's `go`); calling it on a running queue does nothing.
    public func go() {
        perform(modify { $0.scheduler.go() })
    }

    /// Holds back requests that have not started; running ones go on. ``go()`` resumes.
    public func suspend() {
        shared.withLock { $0.scheduler.suspend() }
    }

    /// Cancels every request (ASINetworkQueue's `cancelAllOperations`): waiting ones fail at once with
    /// ``ClientError/Code/cancelled``, running ones as soon as they notice. The queue keeps running.
    ///
    /// The totals stay at what was transferred: a cancelled request is not counted as complete, so
    /// ``downloadProgress`` and ``uploadProgress`` keep the fraction they had (ASINetworkQueue zeroed them).
    /// When a request is next added, once every request is over, what the cancelled requests never moved leaves the
    /// totals (what was moved stays counted), so the new batch can reach 1.
    public func cancelAll() {
        perform(modify { $0.scheduler.cancelAll() })
    }

    /// Whether the queue holds requests back until ``go()``.
    public var isSuspended: Bool { shared.withLock { $0.scheduler.isSuspended } }

    /// Requests added and not yet over (ASINetworkQueue's `requestsCount`); `HEAD` pre-flights do not count.
    public var requestCount: Int { shared.withLock { $0.scheduler.outstanding } }

    /// The queue's total upload progress, from 0 to exactly 1 once every request has finished.
    ///
    /// A request that fails or is cancelled counts only what it sent, so after a failure or ``cancelAll()`` the
    /// total stays short of 1 (see ``downloadProgress``).
    public var uploadProgress: Double { progress.fraction(.upload) }

    /// The queue's total download progress, from 0 to exactly 1 once every request has finished.
    ///
    /// A request that fails or is cancelled (a failure, a cancel included) is not counted as complete: its size
    /// stays in the total, one unit when unknown, with only the bytes it received done. So the total stays
    /// short of 1 after a failure or ``cancelAll()``, at the fraction actually transferred. When the next request
    /// is added to a queue whose requests are all over, the part those requests never moved leaves the total (what
    /// was moved stays counted), so the new batch can reach 1.
    public var downloadProgress: Double { progress.fraction(.download) }

    /// The results of the requests that end from now on, in the order they end; the sequence ends when the
    /// queue next drains (at once when the queue is running and empty). Take it before ``go()`` to see them all.
    public var results: AsyncStream<QueueResult> {
        let buffer = QueueResultBuffer(handOff: resultsHandOff)
        let idle = shared.withLock { shared in
            guard shared.scheduler.outstanding > 0 || shared.scheduler.isSuspended else { return true }
            shared.streams.append(buffer)
            return false
        }
        if idle { buffer.finish() }
        return buffer.stream()
    }

    /// Waits until every request added has finished or failed and every callback that caused has run: each
    /// request's own callbacks, the queue's, and ``QueueCallbacks/queueFinished``. Returns at once when nothing is
    /// outstanding and no callback is still queued. A cancelled waiting task returns early.
    ///
    /// It relies on the executor running its jobs in order (``CallbackExecutor``'s contract; a serial queue, not
    /// `DispatchQueue.global()`, whose concurrent jobs would let it return before the last callback ran); with an
    /// executor that never runs them (`DispatchQueue.main` without a main loop) it does not return.
    public func waitUntilFinished() async {
        let wait = shared.withLock { shared -> (token: UInt64, drain: UInt64)? in
            guard let drain = shared.drainToWaitFor else { return nil }
            shared.nextToken += 1
            return (shared.nextToken, drain)
        }
        guard let wait else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = shared.withLock { shared in
                    guard shared.drainsDelivered < wait.drain, !Task.isCancelled else { return true }
                    shared.waiters[wait.token] = (wait.drain, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            shared.withLock { $0.waiters.removeValue(forKey: wait.token) }?.continuation.resume()
        }
    }
}
