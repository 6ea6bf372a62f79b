import ArgumentParser
import FoundationEssentials
import HTTPCore

/// The authentication flags, as curl's: which scheme answers a server's or a proxy's challenge, the proxy's
/// credentials and a bearer token. `-u` and `--anyauth` stay with the request flags.
struct AuthFlags: ParsableArguments {
    @Flag(name: .customLong("basic"), help: "Use Basic with -u, sent up front (the default).")
    var basic = false

    @Flag(name: .customLong("digest"), help: "Use HTTP Digest with -u: sent only after the server's challenge.")
    var digest = false

    @Flag(name: .customLong("ntlm"), help: "Use NTLM (NTLMv2) with -u; the domain as DOMAIN\\user. See --allow-ntlmv1.")
    var ntlm = false

    @Flag(
        name: .customLong("allow-ntlmv1"),
        help: "Answer a legacy NTLM server or proxy that cannot check NTLMv2 with NTLMv1, as curl does (weak: off).")
    var allowNTLMv1 = false

    @Option(
        name: [.customShort("U"), .customLong("proxy-user")],
        help: ArgumentHelp("Credentials for the proxy's 407 challenge.", valueName: "user:password"))
    var proxyUser: String?

    @Flag(name: .customLong("proxy-basic"), help: "Answer the proxy with Basic only.")
    var proxyBasic = false

    @Flag(name: .customLong("proxy-digest"), help: "Answer the proxy with Digest only.")
    var proxyDigest = false

    @Flag(name: .customLong("proxy-ntlm"), help: "Answer the proxy with NTLM only.")
    var proxyNTLM = false

    @Flag(name: .customLong("proxy-anyauth"), help: "Answer the proxy with the strongest scheme it offers (default).")
    var proxyAnyAuth = false

    @Option(
        name: .customLong("oauth2-bearer"), help: ArgumentHelp("Send this OAuth 2 bearer token.", valueName: "token"))
    var bearer: String?

    @Flag(
        name: .customLong("location-trusted"),
        help: "Like -L, and send -u's credentials to the hosts redirected to as well (curl's flag).")
    var locationTrusted = false

    /// The server scheme the flags force, if any: `.basic` (sent up front), `.digest` or `.ntlm`.
    var scheme: AuthenticationScheme? {
        if ntlm { return .ntlm }
        if digest { return .digest }
        return basic ? .basic : nil
    }

    /// The proxy scheme the flags force, if any.
    var proxyScheme: AuthenticationScheme? {
        if proxyAnyAuth { return nil }
        if proxyNTLM { return .ntlm }
        if proxyDigest { return .digest }
        return proxyBasic ? .basic : nil
    }

    /// The `Proxy-Authorization: Basic …` field curl sends before any 407 when proxy credentials are given (`-U`,
    /// or `user:password@` inside `-x`, already in `route`) and no other proxy scheme is forced (`--proxy-digest`,
    /// `--proxy-ntlm`, `--proxy-anyauth`); `nil` otherwise. The transport sends it to a plain HTTP proxy only,
    /// never down a `CONNECT` tunnel or to an origin.
    /// - Parameter route: The `-x` proxy, if any.
    /// - Returns: The header line, or `nil`.
    func preemptiveProxyField(route: ProxyRoute?) -> String? {
        guard let route, !proxyAnyAuth, !proxyDigest, !proxyNTLM,
            let credential = proxyUser.map(TransferContext.credential) ?? route.credential
        else { return nil }
        return "Proxy-Authorization: Basic "
            + Data("\(credential.user):\(credential.password)".utf8).base64EncodedString()
    }

    /// Applies the proxy flags and the bearer token to the request options.
    /// - Parameters:
    ///   - options: The options to change.
    ///   - hasUser: Whether `-u` gave credentials (they win over a bearer token, as in curl).
    func apply(to options: inout RequestOptions, hasUser: Bool) {
        options.proxyAuthenticationScheme = proxyScheme
        if let proxyUser { options.proxyCredential = TransferContext.credential(proxyUser) }
        if !hasUser, let bearer { options.credential = .bearer(bearer) }
        if let scheme, scheme != .basic { options.authenticationScheme = scheme }
        options.failsOnUnansweredChallenge = false  // curl prints the last 401 and exits 0
        if locationTrusted {
            options.followsRedirects = true
            options.keepsCredentialsOnRedirect = true
        }
    }
}
