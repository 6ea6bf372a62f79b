import FoundationEssentials
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// What ended an attempt, as a ``RetryPolicy`` sees it.
enum RetryOutcome {
    /// A response head arrived with this status and `Retry-After` field.
    case status(Int, retryAfter: String?)
    /// The attempt failed.
    case error(any Error)
}

// A class, though it is one request's: its start instant (`ContinuousClock.Instant`) has no fixed layout outside
// the standard library, which would make every `HopState` that held it inline a dynamically sized value that each
// request allocates beside its async frame. A reference keeps `HopState` fixed.
/// One request's retries under its ``RetryPolicy``: whether an attempt's outcome is retried, and the wait before
/// the next attempt. The decision is the pure ``decide(_:outcome:method:retriesSoFar:elapsed:now:randomFraction:)``;
/// this object only counts and sleeps.
final class RetryState {
    /// The request's policy, or `nil` for none.
    let policy: RetryPolicy?
    /// Retries made under the policy so far.
    private(set) var retries = 0
    /// The wait chosen for the next attempt, until it is taken.
    private(set) var pendingWait: Duration?
    private let started = ContinuousClock.now

    /// Starts the retries of one request.
    /// - Parameter policy: Its policy, or `nil`.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` for a policy that cannot be applied.
    init(policy: RetryPolicy?) throws {
        if let policy {
            func invalid(_ message: String) -> ClientError {
                ClientError(.invalidConfiguration, stage: .pipeline, message: "Invalid retry policy: \(message)")
            }
            guard policy.maxAttempts >= 1 else { throw invalid("maxAttempts must be at least 1") }
            guard policy.multiplier >= 1, policy.multiplier.isFinite else { throw invalid("multiplier must be >= 1") }
            guard (0...1).contains(policy.jitter) else { throw invalid("jitter must be between 0 and 1") }
            guard policy.initialDelay >= .zero, policy.maxDelay >= .zero else { throw invalid("negative delay") }
        }
        self.policy = policy
    }

    /// Decides whether `outcome` is retried and, when it is, records the wait the next attempt starts with.
    /// - Parameters:
    ///   - outcome: What ended the attempt.
    ///   - request: The hop that was sent.
    ///   - mayResend: Whether its body can be sent again.
    /// - Returns: Whether to send the hop again.
    ///
    /// Never inlined (nor ``waitIfScheduled()``): the clock's values are of types whose size the standard library
    /// keeps to itself, and each such local inlined into an async function costs a task allocation per call, taken
    /// or not (decision 0034).
    @inline(never)
    func schedules(after outcome: RetryOutcome, for request: Request, mayResend: Bool) -> Bool {
        guard let policy, mayResend,
            let wait = Self.decide(
                policy, outcome: outcome, method: request.method, retriesSoFar: retries,
                elapsed: ContinuousClock.now - started, now: Date(), randomFraction: Double.random(in: 0..<1))
        else { return false }
        retries += 1
        pendingWait = wait
        return true
    }

    /// Sleeps the wait chosen by the last ``schedules(after:for:mayResend:)``, if any.
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    @inline(never)
    func waitIfScheduled() async throws {
        guard let wait = pendingWait else { return }
        pendingWait = nil
        if wait > .zero { try await Task.sleep(for: wait) }
    }

    /// The wait before sending again after `outcome`, or `nil` when the policy does not retry it.
    /// - Parameters:
    ///   - policy: The policy.
    ///   - outcome: What ended the attempt.
    ///   - method: The request's method.
    ///   - retriesSoFar: Retries already made under the policy.
    ///   - elapsed: The time since the first attempt started.
    ///   - now: The wall-clock time, for a `Retry-After` date.
    ///   - randomFraction: A number in `0..<1` that picks the jitter.
    /// - Returns: The wait, or `nil` for no retry.
    static func decide(
        _ policy: RetryPolicy, outcome: RetryOutcome, method: HTTPRequest.Method, retriesSoFar: Int,
        elapsed: Duration, now: Date, randomFraction: Double
    ) -> Duration? {
        guard retriesSoFar + 1 < policy.maxAttempts, policy.methods?.contains(method) ?? true else { return nil }
        var retryAfter: Duration?
        switch outcome {
        case .status(let code, let field):
            guard policy.statuses.contains(code) else { return nil }
            if policy.honoursRetryAfter { retryAfter = field.flatMap { RetryAfter.wait($0, now: now) } }
        case .error(let error):
            guard isRetried(error, by: policy) else { return nil }
        }
        let backoff = policy.backoff(beforeRetry: retriesSoFar + 1)
        var wait = backoff - backoff * (policy.jitter * min(max(randomFraction, 0), 1))
        if let retryAfter {
            if let limit = policy.maxRetryAfter, retryAfter > limit { return nil }
            wait = max(wait, retryAfter)
        }
        if let maxDuration = policy.maxDuration {
            guard elapsed < maxDuration else { return nil }
            // A server asking for a wait past the limit gets its answer back (curl's rule); a backoff is cut to fit.
            if let retryAfter, elapsed + retryAfter > maxDuration { return nil }
            wait = min(wait, maxDuration - elapsed)
        }
        return wait
    }

    private static func isRetried(_ error: any Error, by policy: RetryPolicy) -> Bool {
        if error is CancellationError { return false }
        guard let error = error as? ClientError else { return policy.retriesAllErrors }
        if error.code == .cancelled { return false }
        if policy.retriesAllErrors || policy.errors.contains(error.code) { return true }
        return policy.retriesRefusedConnections && error.code == .connectFailed
            && (error.underlying as? SyscallError)?.errno == ECONNREFUSED
    }
}

/// Reads a `Retry-After` field (RFC 9110 §10.2.3): a number of seconds or an HTTP date.
enum RetryAfter {
    /// The wait the field asks for, or `nil` when it is neither form. A date in the past asks for no wait.
    /// - Parameters:
    ///   - field: The field's value.
    ///   - now: The current time.
    /// - Returns: The wait.
    static func wait(_ field: String, now: Date) -> Duration? {
        let text = String(field.trimmingOWS())
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            // A huge number of seconds is capped at a year, which every limit is below.
            return .seconds(Int64(text).map { min($0, 365 * 86_400) } ?? 365 * 86_400)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds <= 0 ? .zero : .milliseconds(Int64(min(seconds, 365 * 86_400) * 1000))
    }
}
