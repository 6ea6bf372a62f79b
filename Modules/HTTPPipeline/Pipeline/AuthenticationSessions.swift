import HTTPCore
import Synchronization

/// The client's accepted negotiations, by origin: a later request to the same server sends the session's
/// credential up front in the scheme the server asked for, as ASIHTTPRequest re-applies its session
/// authentication (a Digest negotiation counts the server's nonce on: `nc=00000002`, …). A rejected credential's
/// negotiation is dropped with it.
final class AuthenticationSessions: Sendable {
    struct Entry: Sendable {
        var credential: Credential
        var scheme: AuthenticationScheme
        var negotiation: any AuthenticationNegotiation
    }

    private let entries = Mutex<[Origin: Entry]>([:])
    /// One handler question at a time per scope.
    let gate = HandlerGate()

    /// Whether no negotiation is kept.
    var isEmpty: Bool { entries.withLock { $0.isEmpty } }

    /// The accepted negotiation for `origin`, if any.
    func entry(for origin: Origin) -> Entry? {
        entries.withLock { $0[origin] }
    }

    /// Keeps an accepted, reusable negotiation for `origin`.
    func keep(_ negotiation: any AuthenticationNegotiation, scheme: AuthenticationScheme, credential: Credential,
              for origin: Origin)
    {
        guard negotiation.isReusable else { return }
        entries.withLock { $0[origin] = Entry(credential: credential, scheme: scheme, negotiation: negotiation) }
    }

    /// Drops `origin`'s negotiation when it uses `credential`.
    func drop(_ credential: Credential, for origin: Origin) {
        entries.withLock { entries in
            if entries[origin]?.credential == credential { entries[origin] = nil }
        }
    }

    /// Drops every negotiation and the handler's remembered answers (``Client/clearSession()``).
    func removeAll() {
        entries.withLock { $0.removeAll() }
        gate.removeAll()
    }
}
