import FoundationEssentials
import HTTPCore
@testable import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// ``RetryPolicy``'s decision as a pure function, then end to end through the pipeline with a scripted transport.
@Suite struct RetryPolicyDecisionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func decide(
        _ policy: RetryPolicy, _ outcome: RetryOutcome, method: HTTPRequest.Method = .get, retries: Int = 0,
        elapsed: Duration = .zero, random: Double = 0
    ) -> Duration? {
        RetryState.decide(policy, outcome: outcome, method: method, retriesSoFar: retries, elapsed: elapsed,
                          now: now, randomFraction: random)
    }

    @Test func theDefaultsRetryTransientStatusesOfIdempotentMethodsOnly() {
        let policy = RetryPolicy()
        for code in [408, 429, 500, 502, 503, 504] {
            #expect(Self.decide(policy, .status(code, retryAfter: nil)) != nil, "\(code)")
        }
        for code in [200, 400, 401, 404, 501, 505] {
            #expect(Self.decide(policy, .status(code, retryAfter: nil)) == nil, "\(code)")
        }
        for method: HTTPRequest.Method in [.get, .head, .put, .delete, .options, .trace] {
            #expect(Self.decide(policy, .status(503, retryAfter: nil), method: method) != nil, "\(method)")
        }
        #expect(Self.decide(policy, .status(503, retryAfter: nil), method: .post) == nil)
        #expect(Self.decide(policy, .status(503, retryAfter: nil), method: .patch) == nil)
        var anyMethod = policy
        anyMethod.methods = nil
        #expect(Self.decide(anyMethod, .status(503, retryAfter: nil), method: .post) != nil)
    }

    @Test func backoffDoublesUpToTheCeilingAndJitterOnlyShortens() {
        let policy = RetryPolicy(maxAttempts: 10, initialDelay: .seconds(1), maxDelay: .seconds(5), jitter: 0.5)
        let waits = (0..<5).map { Self.decide(policy, .status(503, retryAfter: nil), retries: $0) }
        #expect(waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
        #expect(Self.decide(policy, .status(503, retryAfter: nil), retries: 2, random: 0.5) == .seconds(3))
        #expect(Self.decide(policy, .status(503, retryAfter: nil), retries: 2, random: 0.999)! > .seconds(2))
        #expect(policy.backoff(beforeRetry: 40) == .seconds(5), "no overflow far past the ceiling")
    }

    @Test func attemptsStopAtMaxAttempts() {
        let policy = RetryPolicy(maxAttempts: 3)
        #expect(Self.decide(policy, .status(503, retryAfter: nil), retries: 1) != nil)
        #expect(Self.decide(policy, .status(503, retryAfter: nil), retries: 2) == nil)
        #expect(Self.decide(RetryPolicy(maxAttempts: 1), .status(503, retryAfter: nil)) == nil)
    }

    @Test func retryAfterInSecondsOrAsADateWaitsLongerUpToItsLimit() {
        let policy = RetryPolicy(initialDelay: .seconds(1), jitter: 0)
        #expect(Self.decide(policy, .status(503, retryAfter: "7")) == .seconds(7))
        #expect(Self.decide(policy, .status(429, retryAfter: " 0 ")) == .seconds(1), "never shorter than the backoff")
        let date = "Fri, 15 Jan 2027 08:00:20 GMT"  // 20 s after `now`
        #expect(Self.decide(policy, .status(503, retryAfter: date)) == .seconds(20))
        #expect(Self.decide(policy, .status(503, retryAfter: "Thu, 01 Jan 2026 00:00:00 GMT")) == .seconds(1))
        #expect(Self.decide(policy, .status(503, retryAfter: "soon")) == .seconds(1), "unreadable: ignored")
        #expect(Self.decide(policy, .status(503, retryAfter: "-5")) == .seconds(1))
        #expect(Self.decide(policy, .status(503, retryAfter: "61")) == nil, "longer than maxRetryAfter: final")
        #expect(Self.decide(policy, .status(503, retryAfter: "99999999999999999999999")) == nil)
        var ignoring = policy
        ignoring.honoursRetryAfter = false
        #expect(Self.decide(ignoring, .status(503, retryAfter: "61")) == .seconds(1))
        var unlimited = policy
        unlimited.maxRetryAfter = nil
        #expect(Self.decide(unlimited, .status(503, retryAfter: "3600")) == .seconds(3600))
    }

    @Test func maxDurationCutsTheWaitAndEndsTheRetries() {
        var policy = RetryPolicy(initialDelay: .seconds(4), jitter: 0)
        policy.maxDuration = .seconds(10)
        #expect(Self.decide(policy, .status(503, retryAfter: nil), elapsed: .seconds(3)) == .seconds(4))
        #expect(Self.decide(policy, .status(503, retryAfter: nil), elapsed: .seconds(8)) == .seconds(2))
        #expect(Self.decide(policy, .status(503, retryAfter: "9"), elapsed: .seconds(1)) == .seconds(9))
        #expect(Self.decide(policy, .status(503, retryAfter: "30"), elapsed: .seconds(1)) == nil, "past the limit")
        #expect(Self.decide(policy, .status(503, retryAfter: nil), elapsed: .seconds(10)) == nil)
    }

    @Test func errorsAreRetriedByCodeRefusalOrAll() {
        let policy = RetryPolicy()
        #expect(Self.decide(policy, .error(ClientError(.timedOut, message: "t"))) != nil)
        #expect(Self.decide(policy, .error(ClientError(.receiveFailed, message: "r"))) != nil)
        #expect(Self.decide(policy, .error(ClientError(.certificateInvalid, message: "c"))) == nil)
        #expect(Self.decide(policy, .error(CancellationError())) == nil)
        #expect(Self.decide(policy, .error(ClientError(.cancelled, message: "c"))) == nil)

        let refused = ClientError(.connectFailed, message: "r", underlying: SyscallError(errno: ECONNREFUSED,
                                                                                          operation: "connect"))
        let unreachable = ClientError(.connectFailed, message: "u",
                                      underlying: SyscallError(errno: ENETUNREACH, operation: "connect"))
        var curlLike = RetryPolicy(errors: [.timedOut, .nameResolutionFailed])
        #expect(Self.decide(curlLike, .error(refused)) == nil)
        curlLike.retriesRefusedConnections = true
        #expect(Self.decide(curlLike, .error(refused)) != nil)
        #expect(Self.decide(curlLike, .error(unreachable)) == nil)
        curlLike.retriesAllErrors = true
        #expect(Self.decide(curlLike, .error(unreachable)) != nil)
        #expect(Self.decide(curlLike, .error(CancellationError())) == nil)
        #expect(Self.decide(curlLike, .status(404, retryAfter: nil)) == nil, "all errors is not all statuses")
    }

    @Test(arguments: [
        RetryPolicy(maxAttempts: 0), RetryPolicy(multiplier: 0.5), RetryPolicy(jitter: 1.5),
        RetryPolicy(initialDelay: .seconds(-1)),
    ])
    func anUnusablePolicyIsATypedError(policy: RetryPolicy) async throws {
        var request = Request("http://a.example/")
        request.options.retryPolicy = policy
        let transport = ScriptedTransport(sequence: [.text("ok")])
        let error = await #expect(throws: ClientError.self) { try await Client(transport: transport).send(request) }
        #expect(error?.code == .invalidConfiguration)
        #expect(transport.requests.isEmpty)
    }
}

@Suite struct RetryPolicyPipelineTests {
    static let quick = RetryPolicy(maxAttempts: 4, initialDelay: .milliseconds(1), maxDelay: .milliseconds(5))

    /// Answers with `statuses` in turn, then 200.
    static func answering(_ statuses: [Int], retryAfter: String? = nil) -> ScriptedTransport {
        let count = Atomic<Int>(0)
        return ScriptedTransport { _, _ in
            let index = count.add(1, ordering: .relaxed).oldValue
            guard index < statuses.count else { return .text("done") }
            return .text("busy", status: statuses[index],
                         headerFields: retryAfter.map { fields([(.retryAfter, $0)]) } ?? [:])
        }
    }

    @Test func transientStatusesAreRetriedUntilTheAnswer() async throws {
        let transport = Self.answering([503, 429, 502])
        var request = Request("http://a.example/")
        request.options.retryPolicy = Self.quick
        let response = try await Client(transport: transport).send(request)
        #expect(response.status.code == 200)
        #expect(response.text() == "done")
        #expect(response.info.retryCount == 3)
        #expect(transport.requests.count == 4)
    }

    @Test func theLastResponseStandsWhenAttemptsRunOut() async throws {
        let transport = Self.answering([503, 503, 503, 503, 503])
        var request = Request("http://a.example/")
        request.options.retryPolicy = Self.quick
        let response = try await Client(transport: transport).send(request)
        #expect(response.status.code == 503)
        #expect(transport.requests.count == 4)
    }

    @Test func theClientsPolicyAppliesUnlessTheRequestHasItsOwn() async throws {
        var configuration = Client.Configuration()
        configuration.retryPolicy = Self.quick
        let transport = Self.answering([500])
        let response = try await Client(transport: transport, configuration: configuration)
            .send(Request("http://a.example/"))
        #expect(response.status.code == 200)
        let once = Self.answering([500])
        var request = Request("http://a.example/")
        request.options.retryPolicy = RetryPolicy(maxAttempts: 1)
        let final = try await Client(transport: once, configuration: configuration).send(request)
        #expect(final.status.code == 500)
        #expect(once.requests.count == 1)
    }

    @Test func postIsNotRetriedByDefault() async throws {
        let transport = Self.answering([503])
        var request = Request("http://a.example/", method: .post)
        request.body = .bytes([1, 2, 3])
        request.options.retryPolicy = Self.quick
        let response = try await Client(transport: transport).send(request)
        #expect(response.status.code == 503)
        #expect(transport.requests.count == 1)
    }

    @Test func aReplayableBodyIsSentAgainWholeAndAOneTimeStreamIsNot() async throws {
        var policy = Self.quick
        policy.methods = nil
        let replayed = Self.answering([503])
        var request = Request("http://a.example/", method: .post)
        request.body = .bytes(Array("payload".utf8))
        request.options.retryPolicy = policy
        #expect(try await Client(transport: replayed).send(request).status.code == 200)
        #expect(replayed.requests.count == 2)
        #expect(replayed.requests.allSatisfy { $0.body?.length == 7 })

        let once = Self.answering([503])
        request.body = .stream(length: 7) { RequestBody.Chunks([Array("payload".utf8)]) }
        let response = try await Client(transport: once).send(request)
        #expect(response.status.code == 503, "a one-time stream already sent is not sent again")
        #expect(once.requests.count == 1)
    }

    @Test func transportErrorsAreRetriedAndTheLastErrorThrown() async throws {
        let transport = ScriptedTransport.failing(.receiveFailed)
        var request = Request("http://a.example/")
        request.options.retryPolicy = Self.quick
        let error = await #expect(throws: ClientError.self) { try await Client(transport: transport).send(request) }
        #expect(error?.code == .receiveFailed)
        #expect(transport.requests.count == 4)
    }

    @Test func cancellationDuringTheWaitEndsTheRequest() async throws {
        let transport = Self.answering([503, 503])
        var request = Request("http://a.example/")
        request.options.retryPolicy = RetryPolicy(initialDelay: .seconds(3600), jitter: 0)
        let client = Client(transport: transport)
        let task = Task { try await client.send(request) }
        while transport.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.requests.count == 1)
    }
}
