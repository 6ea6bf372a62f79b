import HTTPCore
import Synchronization
import Testing

@testable import HTTPPipeline

/// One handler question at a time per scope: waiting requests take the asker's answer, a `nil` (the user gave up)
/// included, and a rejected answer is asked for again.
@Suite struct HandlerGateTests {
    static let scope = CredentialScope(scheme: "http", host: "a.example", port: 80, realm: "r")
    static let credential = Credential(user: "u", password: "p")

    /// Starts an asker whose handler returns `answer` once `release` is set, and `waiters` requests behind it;
    /// returns every request's result once all have finished.
    final class Flags: Sendable {
        let asked = Mutex(0)
        let release = Mutex(false)
    }

    static func run(answer: Credential?, waiters: Int) async throws -> (results: [Credential?], asked: Int) {
        let gate = HandlerGate()
        let flags = Flags()
        return try await withThrowingTaskGroup(of: Credential?.self) { group in
            group.addTask {
                try await gate.credential(for: scope, rejected: []) {
                    flags.asked.withLock { $0 += 1 }
                    while !flags.release.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
                    return answer
                }
            }
            while flags.asked.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(5)) }
            for _ in 0..<waiters {
                group.addTask {
                    try await gate.credential(for: scope, rejected: []) {
                        flags.asked.withLock { $0 += 1 }
                        return Credential(user: "other", password: "x")
                    }
                }
            }
            while gate.waiting(for: scope) < waiters { try await Task.sleep(for: .milliseconds(5)) }
            flags.release.withLock { $0 = true }
            let results = try await group.reduce(into: [Credential?]()) { $0.append($1) }
            return (results, flags.asked.withLock { $0 })
        }
    }

    @Test func waitingRequestsTakeTheAnswer() async throws {
        let (results, asked) = try await Self.run(answer: Self.credential, waiters: 4)
        #expect(asked == 1)
        #expect(results == Array(repeating: Self.credential, count: 5))
    }

    @Test func aGivenUpQuestionGivesUpForEveryWaitingRequest() async throws {
        let (results, asked) = try await Self.run(answer: nil, waiters: 4)
        #expect(asked == 1)
        #expect(results == Array(repeating: nil, count: 5))
    }

    @Test func aRejectedAnswerIsAskedForAgain() async throws {
        let gate = HandlerGate()
        let first = try await gate.credential(for: Self.scope, rejected: []) { Self.credential }
        let reused = try await gate.credential(for: Self.scope, rejected: []) { nil }
        #expect(first == Self.credential && reused == Self.credential)
        gate.reject(Self.credential, for: Self.scope)
        let fresh = Credential(user: "u", password: "new")
        #expect(try await gate.credential(for: Self.scope, rejected: [Self.credential]) { fresh } == fresh)
    }
}
