import HTTPCore
import Synchronization

/// One question to the authentication handler at a time per scope (host, port, realm, server or proxy), as
/// ASIHTTPRequest asks its delegate once for a queue of requests (`testDelegateAuthenticationCredentialsReuse`):
/// requests that reach the handler while it is being asked wait and take its answer, a `nil` (the user gave up)
/// or an error included; later requests reuse the answer until a server rejects it.
final class HandlerGate: Sendable {
    private enum Slot: Sendable {
        case asking([CheckedContinuation<Credential?, any Error>])
        case answered(Credential)
    }

    private enum Action {
        case use(Credential)
        case wait
        case ask
    }

    private let slots = Mutex<[CredentialScope: Slot]>([:])

    /// The handler's answer for `scope`: a fresh one from `ask`, the one being asked for, or the last one given
    /// unless this request saw it rejected.
    func credential(
        for scope: CredentialScope,
        rejected: Set<Credential>,
        ask: () async throws -> Credential?
    ) async throws -> Credential? {
        let action = slots.withLock { slots -> Action in
            switch slots[scope] {
            case .answered(let credential) where !rejected.contains(credential): return .use(credential)
            case .asking: return .wait
            default:
                slots[scope] = .asking([])
                return .ask
            }
        }
        switch action {
        case .use(let credential):
            return credential
        case .wait:
            return try await withCheckedThrowingContinuation { continuation in
                let answer = slots.withLock { slots -> Credential?? in
                    switch slots[scope] {
                    case .asking(let waiting):
                        slots[scope] = .asking(waiting + [continuation])
                        return nil
                    case .answered(let credential): return .some(credential)
                    case nil: return .some(nil)
                    }
                }
                if let answer { continuation.resume(returning: answer) }
            }
        case .ask:
            let result: Result<Credential?, any Error>
            do {
                result = .success(try await ask())
            } catch {
                result = .failure(error)
            }
            let waiting = slots.withLock { slots -> [CheckedContinuation<Credential?, any Error>] in
                guard case .asking(let waiting) = slots[scope] else { return [] }
                if case .success(let credential?) = result {
                    slots[scope] = .answered(credential)
                } else {
                    slots[scope] = nil
                }
                return waiting
            }
            for continuation in waiting { continuation.resume(with: result) }
            return try result.get()
        }
    }

    /// How many requests wait for the handler's answer for `scope` (for tests).
    func waiting(for scope: CredentialScope) -> Int {
        slots.withLock { slots in
            if case .asking(let waiting) = slots[scope] { waiting.count } else { 0 }
        }
    }

    /// Forgets the answer for `scope` when it is `credential` (a server rejected it).
    func reject(_ credential: Credential, for scope: CredentialScope) {
        slots.withLock { slots in
            if case .answered(let answered) = slots[scope], answered == credential { slots[scope] = nil }
        }
    }

    /// Forgets every answer.
    func removeAll() {
        slots.withLock { slots in
            slots = slots.filter { if case .asking = $0.value { true } else { false } }
        }
    }
}
