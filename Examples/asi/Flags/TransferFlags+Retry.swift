import HTTPCore

extension TransferFlags {
    /// The library's ``RetryPolicy`` with curl's `--retry` meanings, or `nil` without `--retry`.
    ///
    /// curl's rules (`tool_operate.c`): every method; a timeout or an unresolvable host, and the statuses 408, 429,
    /// 500, 502, 503 and 504; the first wait is 1 s, doubling up to 10 minutes, or `--retry-delay` every time; a
    /// `Retry-After` longer than the wait is waited for, unless it would end past `--retry-max-time` (the answer
    /// then stands, as in curl 7.88); `--retry-connrefused` adds refused connections, `--retry-all-errors` every
    /// error, and with `-f` every status of 400 or more.
    /// - Parameter failsOnHTTPError: Whether `-f` was given.
    /// - Returns: The policy.
    func retryPolicy(failsOnHTTPError: Bool) -> RetryPolicy? {
        guard retry > 0 else { return nil }
        let delay = retryDelay.flatMap { $0 > 0 ? $0 : nil }  // curl: --retry-delay 0 keeps the doubling
        var statuses = RetryPolicy.transientStatuses
        if retryAllErrors && failsOnHTTPError { statuses.formUnion(400...599) }
        var policy = RetryPolicy(
            maxAttempts: retry + 1, methods: nil, statuses: statuses, errors: [.timedOut, .nameResolutionFailed],
            initialDelay: delay.map { .milliseconds(Int64($0 * 1000)) } ?? .seconds(1), multiplier: delay == nil ? 2 : 1, maxDelay: .seconds(600), jitter: 0)
        policy.retriesRefusedConnections = retryConnectionRefused
        policy.retriesAllErrors = retryAllErrors
        policy.maxRetryAfter = nil
        policy.maxDuration = retryMaxTime.flatMap { $0 > 0 ? .milliseconds(Int64($0 * 1000)) : nil }
        return policy
    }
}
