import HTTPCore
import Synchronization

/// The client's accepted negotiations, by origin: a later request to the same server sends the session's
/// credential up front in the scheme the server asked for, as ASIHTTPRequest re-applies its session
/// authentication (a Digest negotiation counts the server's nonce on: `nc=00000002`, …). A rejected credential's
/// negotiation is dropped with it.
///
/// It also remembers which scheme accepted each credential the pipeline saved to the session store: a stored
/// credential goes up front as Basic only when Basic (not NTLM or Digest) accepted it, as ASIHTTPRequest re-applied
/// its session credentials only in their own scheme.
final class AuthenticationSessions: Sendable {
    struct Entry: Sendable {
        var credential: Credential
        var scheme: AuthenticationScheme
        var negotiation: any AuthenticationNegotiation
    }

    private struct Accepted: Hashable {
        var origin: Origin
        var credential: Credential
    }

    private struct State {
        var entries: [Origin: Entry] = [:]
        var schemes: [Accepted: AuthenticationScheme] = [:]
    }

    private let state = Mutex(State())
    /// One handler question at a time per scope.
    let gate = HandlerGate()

    /// Whether no negotiation is kept.
    var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }

    /// The accepted negotiation for `origin`, if any.
    func entry(for origin: Origin) -> Entry? {
        state.withLock { $0.entries[origin] }
    }

    /// Records that `scheme` accepted `credential` at `origin` (the pipeline then saved it to the session store).
    func accepted(_ credential: Credential, scheme: AuthenticationScheme, for origin: Origin) {
        state.withLock { $0.schemes[Accepted(origin: origin, credential: credential)] = scheme }
    }

    /// The scheme that last accepted `credential` at `origin`; `nil` when the pipeline never saw it accepted
    /// (a credential the application saved to the store itself).
    func acceptedScheme(of credential: Credential, for origin: Origin) -> AuthenticationScheme? {
        state.withLock { $0.schemes[Accepted(origin: origin, credential: credential)] }
    }

    /// Keeps an accepted, reusable negotiation for `origin`.
    func keep(_ negotiation: any AuthenticationNegotiation, scheme: AuthenticationScheme, credential: Credential,
              for origin: Origin)
    {
        guard negotiation.isReusable else { return }
        state.withLock { $0.entries[origin] = Entry(credential: credential, scheme: scheme, negotiation: negotiation) }
    }

    /// Drops `origin`'s negotiation when it uses `credential`, and what accepted it there.
    func drop(_ credential: Credential, for origin: Origin) {
        state.withLock { state in
            if state.entries[origin]?.credential == credential { state.entries[origin] = nil }
            state.schemes[Accepted(origin: origin, credential: credential)] = nil
        }
    }

    /// Drops every negotiation and the handler's remembered answers (``Client/clearSession()``).
    func removeAll() {
        state.withLock { $0 = State() }
        gate.removeAll()
    }
}
