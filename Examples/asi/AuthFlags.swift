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

    @Flag(name: .customLong("ntlm"), help: "Use NTLM (NTLMv2) with -u; the domain as DOMAIN\\user.")
    var ntlm = false

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

    // A minimal -x for the proxy authentication flags (plain HTTP proxies; an https URL goes through a CONNECT
    // tunnel). The proxies issue owns the full flag (schemes, --noproxy, environment variables).
    @Option(
        name: [.customShort("x"), .customLong("proxy")],
        help: ArgumentHelp(
            "Use this HTTP proxy: [http://][user:password@]host[:port] (port 1080 by default).", valueName: "proxy"))
    var proxy: String?

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

    /// The `-x` proxy's `host[:port]` and its `user:password@`, if any (percent-decoded).
    private var proxyParts: (authority: String, userInfo: String?)? {
        guard let proxy, !proxy.isEmpty else { return nil }
        var text = proxy.hasPrefix("http://") ? String(proxy.dropFirst(7)) : proxy
        text = String(text.prefix { $0 != "/" })
        guard let at = text.lastIndex(of: "@") else { return (text, nil) }
        let userInfo = String(text[..<at])
        return (String(text[text.index(after: at)...]), Self.percentDecoded(userInfo))
    }

    private static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var rest = Substring(text).utf8[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2,
                let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The proxy's `user:password`: `-U`, else the one inside the `-x` URL.
    var proxyUserText: String? { proxyUser ?? proxyParts?.userInfo }

    /// The `Proxy-Authorization: Basic …` field curl sends before any 407 when proxy credentials are given and
    /// no other proxy scheme is forced (`--proxy-digest`, `--proxy-ntlm`, `--proxy-anyauth`); `nil` otherwise.
    /// The transport sends it to a plain HTTP proxy only, never down a `CONNECT` tunnel or to an origin.
    var preemptiveProxyField: String? {
        guard let text = proxyUserText, proxyRoute != nil, !proxyAnyAuth, !proxyDigest, !proxyNTLM else { return nil }
        let credential = TransferContext.credential(text)
        return "Proxy-Authorization: Basic "
            + Data("\(credential.user):\(credential.password)".utf8).base64EncodedString()
    }

    /// The `-x` proxy as a route, or `nil`.
    var proxyRoute: ProxyRoute? {
        guard var text = proxyParts?.authority else { return nil }
        var port = 1080
        if let colon = text.lastIndex(of: ":"), !text.hasSuffix("]"),
            let number = Int(text[text.index(after: colon)...])
        {
            port = number
            text = String(text[..<colon])
        }
        return .http(host: text.filter { $0 != "[" && $0 != "]" }, port: port)
    }

    /// Applies the proxy flags and the bearer token to the request options.
    /// - Parameters:
    ///   - options: The options to change.
    ///   - hasUser: Whether `-u` gave credentials (they win over a bearer token, as in curl).
    func apply(to options: inout RequestOptions, hasUser: Bool) {
        options.proxyAuthenticationScheme = proxyScheme
        if let proxyUserText { options.proxyCredential = TransferContext.credential(proxyUserText) }
        if !hasUser, let bearer { options.credential = .bearer(bearer) }
        if let scheme, scheme != .basic { options.authenticationScheme = scheme }
        options.failsOnUnansweredChallenge = false  // curl prints the last 401 and exits 0
        if locationTrusted {
            options.followsRedirects = true
            options.keepsCredentialsOnRedirect = true
        }
    }
}
