public import HTTPTypes

/// When and how a request is sent again after a transient failure: which methods, which statuses and errors, how
/// many attempts, and how long to wait between them.
///
/// Set it on ``RequestOptions/retryPolicy`` (or the client's default, `Client.Configuration.retryPolicy`); both
/// are `nil` by default, so nothing is retried beyond ``RequestOptions/retriesOnTimeout``. The pipeline applies it
/// to each hop: a retried hop keeps the redirects, cookies and credentials gathered so far.
///
/// The wait before retry *n* (1 for the first retry) is `initialDelay × multiplier^(n-1)`, at most `maxDelay`,
/// shortened at random by up to `jitter` of itself. A `Retry-After` field (seconds or an HTTP date) on a retried
/// status makes the wait at least that long; one longer than ``maxRetryAfter`` makes the response final instead.
/// A body is sent again only when it can be (``RequestBody/isReplayable``); a one-time stream already sent ends
/// the retries and the last response or error stands. An error while `Client.send(_:)` reads the response body is
/// retried like one before the head, as ``RequestOptions/retriesOnTimeout`` does: the body starts over.
///
/// ```swift
/// var request = Request(url: URL(string: "https://api.example/items")!)
/// request.options.retryPolicy = RetryPolicy(maxAttempts: 4)
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// The most attempts, the first included: 3 sends once and retries twice. Default 3.
    public var maxAttempts: Int
    /// The methods retried; `nil` retries every method (curl's `--retry`). Default the idempotent methods of
    /// RFC 9110 §9.2.2: `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS` and `TRACE`, so `POST` and `PATCH` are off.
    public var methods: Set<HTTPRequest.Method>?
    /// The response statuses retried. Default 408, 429, 500, 502, 503 and 504 (curl's transient statuses).
    public var statuses: Set<Int>
    /// The error codes retried, whatever their cause. Default ``ClientError/Code/timedOut``,
    /// ``ClientError/Code/connectFailed``, ``ClientError/Code/emptyResponse``, ``ClientError/Code/sendFailed`` and
    /// ``ClientError/Code/receiveFailed``.
    public var errors: Set<ClientError.Code>
    /// Whether a ``ClientError/Code/connectFailed`` whose cause is a refused connection (`ECONNREFUSED`) is
    /// retried even when ``errors`` does not list `connectFailed` (curl's `--retry-connrefused`). Default `false`.
    public var retriesRefusedConnections: Bool
    /// Whether every error is retried, whatever its code (curl's `--retry-all-errors`); cancellation never is.
    /// Default `false`.
    public var retriesAllErrors: Bool
    /// The wait before the first retry. Default 1 s.
    public var initialDelay: Duration
    /// What each later wait is multiplied by; 1 keeps the wait constant. Default 2.
    public var multiplier: Double
    /// The longest wait the backoff reaches (`Retry-After` may ask for longer, up to ``maxRetryAfter``).
    /// Default 30 s.
    public var maxDelay: Duration
    /// The fraction (0 to 1) of each backoff wait taken off at random, so that many clients do not retry in step.
    /// Default 0.2: a wait of 4 s becomes one between 3.2 and 4 s. A `Retry-After` wait is never shortened.
    public var jitter: Double
    /// Whether a `Retry-After` field (RFC 9110 §10.2.3) on a retried status is honoured. Default `true`.
    public var honoursRetryAfter: Bool
    /// The longest `Retry-After` waited for; a server asking for longer gets its response back as final instead of
    /// an early retry. `nil` waits as long as asked (within ``maxDuration``). Default 60 s.
    public var maxRetryAfter: Duration?
    /// The longest time from the first attempt after which no retry starts (curl's `--retry-max-time`): a backoff
    /// wait that would end later is cut to end then, and a `Retry-After` that would end later makes the response
    /// final, as curl does. `nil` for no limit. Default `nil`.
    public var maxDuration: Duration?

    /// Creates a policy; every argument has the documented default.
    /// - Parameters:
    ///   - maxAttempts: The most attempts, the first included.
    ///   - methods: The methods retried; `nil` for every method.
    ///   - statuses: The response statuses retried.
    ///   - errors: The error codes retried.
    ///   - initialDelay: The wait before the first retry.
    ///   - multiplier: What each later wait is multiplied by.
    ///   - maxDelay: The longest backoff wait.
    ///   - jitter: The fraction of each backoff wait taken off at random.
    public init(
        maxAttempts: Int = 3,
        methods: Set<HTTPRequest.Method>? = RetryPolicy.idempotentMethods,
        statuses: Set<Int> = RetryPolicy.transientStatuses,
        errors: Set<ClientError.Code> = [.timedOut, .connectFailed, .emptyResponse, .sendFailed, .receiveFailed],
        initialDelay: Duration = .seconds(1),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(30),
        jitter: Double = 0.2
    ) {
        self.maxAttempts = maxAttempts
        self.methods = methods
        self.statuses = statuses
        self.errors = errors
        self.retriesRefusedConnections = false
        self.retriesAllErrors = false
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.honoursRetryAfter = true
        self.maxRetryAfter = .seconds(60)
        self.maxDuration = nil
    }

    /// The idempotent methods of RFC 9110 §9.2.2.
    public static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options, .trace]
    /// 408, 429, 500, 502, 503 and 504: the statuses curl's `--retry` calls transient.
    public static let transientStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// The backoff wait before retry `retry` (1 for the first), before jitter: `initialDelay × multiplier^(retry-1)`,
    /// at most ``maxDelay``.
    /// - Parameter retry: The retry's number, from 1.
    /// - Returns: The wait.
    public func backoff(beforeRetry retry: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(retry, 1) {
            guard delay < maxDelay else { break }
            delay = delay * multiplier
        }
        return min(delay, maxDelay)
    }
}
