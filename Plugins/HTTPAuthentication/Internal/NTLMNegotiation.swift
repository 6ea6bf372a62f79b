import FoundationEssentials
import HTTPCore
import Synchronization

/// One NTLM handshake (MS-NLMP): NEGOTIATE, then the server's CHALLENGE, then AUTHENTICATE, all three on one
/// kept-alive connection (``isConnectionBound``). It authenticates that connection, so it is never reused for
/// another request up front. The answer is NTLMv2, or, when NTLMv1 is allowed and the server's CHALLENGE has no
/// target info (a server that cannot check NTLMv2), NTLMv1 as curl sends it.
final class NTLMNegotiation: AuthenticationNegotiation {
    private enum Step: Sendable {
        case negotiate
        case challenged(NTLMMessages.Challenge)
        case authenticated
    }

    private let step = Mutex(Step.negotiate)
    private let user: String
    private let domain: String
    private let password: String
    private let workstation: String
    private let allowsNTLMv1: Bool

    init(credential: Credential, workstation: String, allowsNTLMv1: Bool = false) {
        (user, domain) = Self.split(credential)
        password = credential.password
        self.workstation = workstation
        self.allowsNTLMv1 = allowsNTLMv1
    }

    var isConnectionBound: Bool { true }
    var isReusable: Bool { false }

    func authorization(for request: AuthenticatedRequest) throws -> String {
        let current = step.withLock { step in
            let current = step
            if case .challenged = step { step = .authenticated }
            return current
        }
        switch current {
        case .negotiate, .authenticated:
            let flags = allowsNTLMv1 ? NTLMMessages.legacyNegotiateFlags : NTLMMessages.negotiateFlags
            return "NTLM " + Data(NTLMMessages.negotiate(flags: flags)).base64EncodedString()
        case .challenged(let challenge) where allowsNTLMv1 && challenge.flags & NTLMMessages.targetInfoFlag == 0:
            let responses = try NTLMv1.responses(
                password: password, serverChallenge: challenge.serverChallenge, clientChallenge: Hashing.random(8),
                extendedSessionSecurity: challenge.flags & NTLMMessages.extendedSessionSecurityFlag != 0)
            // The server's flags, as curl echoes them, less signing, sealing and key exchange: no session key goes.
            let message = try NTLMMessages.authenticate(
                flags: challenge.flags & ~NTLMMessages.sessionSecurityFlags, lm: responses.lmChallengeResponse,
                nt: responses.ntChallengeResponse, domain: domain, user: user, workstation: workstation)
            return "NTLM " + Data(message).base64EncodedString()
        case .challenged(let challenge):
            let clientChallenge = Hashing.random(8)
            let time = challenge.timestamp ?? Self.fileTimeNow()
            let key = try NTLMv2.ntowfv2(user: user, password: password, domain: domain)
            let responses = try NTLMv2.responses(key: key, serverChallenge: challenge.serverChallenge,
                                             clientChallenge: clientChallenge, time: time,
                                             targetInfo: challenge.targetInfo)
            // Unicode unless the server chose OEM alone (it may, after the OEM-only NEGOTIATE sent with NTLMv1 allowed).
            let oemOnly = challenge.flags & (NTLMMessages.unicodeFlag | NTLMMessages.oemFlag) == NTLMMessages.oemFlag
            let flags = challenge.flags & NTLMMessages.negotiateFlags | (oemOnly ? 0 : NTLMMessages.unicodeFlag)
            let message = try NTLMMessages.authenticate(
                flags: flags, lm: responses.lmChallengeResponse, nt: responses.ntChallengeResponse,
                domain: domain, user: user, workstation: workstation)
            return "NTLM " + Data(message).base64EncodedString()
        }
    }

    /// The server's CHALLENGE_MESSAGE after NEGOTIATE: go on. A bare `NTLM` challenge after AUTHENTICATE: refused.
    func proceed(after challenge: HTTPChallenge) -> NegotiationStep {
        step.withLock { step in
            guard case .negotiate = step, let token = challenge.token68, let bytes = Data(base64Encoded: token),
                let parsed = NTLMMessages.parseChallenge(Array(bytes))
            else { return .rejected }
            step = .challenged(parsed)
            return .continue
        }
    }

    /// The user and domain: the credential's domain, else a `DOMAIN\user` name split at the backslash.
    static func split(_ credential: Credential) -> (user: String, domain: String) {
        if let domain = credential.domain, !domain.isEmpty { return (credential.user, domain) }
        guard let slash = credential.user.firstIndex(of: "\\") else { return (credential.user, "") }
        return (String(credential.user[credential.user.index(after: slash)...]),
                String(credential.user[..<slash]))
    }

    /// Now as a Windows FILETIME: 100 ns ticks since 1601-01-01.
    private static func fileTimeNow() -> UInt64 {
        let seconds = Date().timeIntervalSince1970 + 11_644_473_600
        return UInt64(seconds * 10_000_000)
    }
}
