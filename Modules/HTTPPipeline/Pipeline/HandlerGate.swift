import HTTPCore
import Synchronization

/// One question to the authentication handler at a time per scope (host, port, realm, server or proxy), as
/// ASIHTTPRequest asks its delegate once for a queue of requests (`testDelegateAuthenticationCredentialsReuse`):
/// requests that reach the handler while it is being asked wait and take its answer, a `nil` (the user gave up)
/// or an error included; later requests reuse the answer until a server rejects it.
///
/// A waiting request that is cancelled stops waiting at once with `CancellationError`. When the asking request is
/// cancelled without an answer, the waiting requests ask again (one of them asks the handler) instead of taking
/// its cancellation. A request the handler itself sends, for the scope it is being asked about, asks the handler
/// directly instead of waiting for itself.
final class HandlerGate: Sendable {
    private enum Outcome {
        case answer(Result<Credential?, any Error>)
        case askAgain
    }

    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Outcome, Never>
    }

    private enum Slot {
        case asking([Waiter])
        case answered(Credential)
    }

    private enum Action {
        case use(Credential)
        case wait(UInt64)
        case ask
    }

    private struct State {
        var slots: [CredentialScope: Slot] = [:]
        var nextID: UInt64 = 0
    }

    /// A scope being asked about by one gate, for ``asking``.
    private struct Question: Hashable {
        var gate: ObjectIdentifier
        var scope: CredentialScope
    }

    /// The questions the current task (the handler, and what it calls) is answering.
    @TaskLocal private static var asking: Set<Question> = []

    private let state = Mutex(State())

    /// The handler's answer for `scope`: a fresh one from `ask`, the one being asked for, or the last one given
    /// unless this request saw it rejected.
    func credential(
        for scope: CredentialScope,
        rejected: Set<Credential>,
        ask: () async throws -> Credential?
    ) async throws -> Credential? {
        let question = Question(gate: ObjectIdentifier(self), scope: scope)
        if Self.asking.contains(question) { return try await ask() }  // the handler's own request
        while true {
            try Task.checkCancellation()
            let action = state.withLock { state -> Action in
                switch state.slots[scope] {
                case .answered(let credential) where !rejected.contains(credential): return .use(credential)
                case .asking:
                    state.nextID += 1
                    return .wait(state.nextID)
                default:
                    state.slots[scope] = .asking([])
                    return .ask
                }
            }
            switch action {
            case .use(let credential):
                return credential
            case .wait(let id):
                switch await wait(for: scope, id: id) {
                case .answer(let result): return try result.get()
                case .askAgain: continue
                }
            case .ask:
                return try await askHandler(for: question, ask: ask)
            }
        }
    }

    /// Asks the handler and hands its answer to the requests waiting for it.
    private func askHandler(for question: Question, ask: () async throws -> Credential?) async throws -> Credential? {
        let result: Result<Credential?, any Error>
        do {
            result = .success(try await Self.$asking.withValue(Self.asking.union([question])) { try await ask() })
        } catch {
            result = .failure(error)
        }
        let outcome: Outcome
        switch result {
        case .success(_?): outcome = .answer(result)
        case .failure(let error) where error is CancellationError: outcome = .askAgain
        default: outcome = Task.isCancelled ? .askAgain : .answer(result)
        }
        let waiting = state.withLock { state -> [Waiter] in
            guard case .asking(let waiting) = state.slots[question.scope] else { return [] }
            if case .success(let credential?) = result {
                state.slots[question.scope] = .answered(credential)
            } else {
                state.slots[question.scope] = nil
            }
            return waiting
        }
        for waiter in waiting { waiter.continuation.resume(returning: outcome) }
        return try result.get()
    }

    /// Waits for the asker's outcome; a cancelled request stops waiting with `CancellationError`. Whoever removes
    /// the waiter from the slot (the asker or the cancellation) resumes it, so it is resumed exactly once.
    private func wait(for scope: CredentialScope, id: UInt64) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let immediate = state.withLock { state -> Outcome? in
                    guard !Task.isCancelled else { return .answer(.failure(CancellationError())) }
                    switch state.slots[scope] {
                    case .asking(let waiting):
                        state.slots[scope] = .asking(waiting + [Waiter(id: id, continuation: continuation)])
                        return nil
                    case .answered(let credential): return .answer(.success(credential))
                    case nil: return .askAgain
                    }
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard case .asking(var waiting) = state.slots[scope],
                    let index = waiting.firstIndex(where: { $0.id == id })
                else { return nil }
                let waiter = waiting.remove(at: index)
                state.slots[scope] = .asking(waiting)
                return waiter
            }
            waiter?.continuation.resume(returning: .answer(.failure(CancellationError())))
        }
    }

    /// How many requests wait for the handler's answer for `scope` (for tests).
    func waiting(for scope: CredentialScope) -> Int {
        state.withLock { state in
            if case .asking(let waiting) = state.slots[scope] { waiting.count } else { 0 }
        }
    }

    /// Forgets the answer for `scope` when it is `credential` (a server rejected it).
    func reject(_ credential: Credential, for scope: CredentialScope) {
        state.withLock { state in
            if case .answered(let answered) = state.slots[scope], answered == credential { state.slots[scope] = nil }
        }
    }

    /// Forgets every answer.
    func removeAll() {
        state.withLock { state in
            state.slots = state.slots.filter { if case .asking = $0.value { true } else { false } }
        }
    }
}
