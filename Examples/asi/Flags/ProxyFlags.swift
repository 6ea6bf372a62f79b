import ArgumentParser
import FoundationEssentials
import HTTPCore

/// The proxy flags, as curl's: `-x` and the environment's proxy variables, the hosts that go directly, `CONNECT`
/// for `http` URLs, and the TLS settings for an `https://` proxy. The proxy's credentials and schemes (`-U`,
/// `--proxy-anyauth`, …) are in ``AuthFlags``.
struct ProxyFlags: ParsableArguments {
    @Option(
        name: [.customShort("x"), .customLong("proxy")],
        help: ArgumentHelp(
            "Use this proxy: [scheme://][user:password@]host[:port], scheme http (default), https, socks4, socks4a, "
                + "socks5 or socks5h; port 1080 by default (443 for https). \"\" turns off every proxy, the "
                + "environment's too.",
            valueName: "url"))
    var proxy: String?

    @Option(
        name: .customLong("noproxy"),
        help: ArgumentHelp(
            "Hosts that go directly, instead of no_proxy: comma-separated names (.domain), IPs, CIDR ranges, "
                + "host:port; * for all, \"\" for none.",
            valueName: "list"))
    var noProxy: String?

    @Flag(
        name: [.customShort("p"), .customLong("proxytunnel")],
        help: "Go through an HTTP proxy with CONNECT for http URLs too.")
    var proxyTunnel = false

    @Option(
        name: .customLong("proxy-cacert"),
        help: ArgumentHelp("Check an https:// proxy's certificate against this PEM CA file.", valueName: "file"))
    var proxyCACertificate: String?

    @Option(
        name: .customLong("proxy-pinnedpubkey"),
        help: ArgumentHelp("As --pinnedpubkey, for an https:// proxy's key.", valueName: "hashes|file"))
    var proxyPinnedPublicKey: String?

    @Flag(name: .customLong("proxy-insecure"), help: "Do not check an https:// proxy's certificate.")
    var proxyInsecure = false

    /// The proxy resolver: `-x` (with `--noproxy`, or else the environment's `no_proxy`), or else the environment's
    /// proxy variables (curl's rules, see ``EnvironmentProxyResolver``); `nil` to connect directly without asking
    /// (`-x ""`, `--noproxy '*'`, or no proxy anywhere).
    /// - Parameter environment: The process environment.
    /// - Returns: The resolver, or `nil`.
    /// - Throws: ``TransferFailure`` (exit 5, as curl's "unsupported proxy syntax") for a proxy URL that cannot be
    ///   used, in `-x` or in a variable; its message never shows the proxy's credential.
    func resolver(environment: [String: String]) throws -> (any ProxyResolver)? {
        let explicitList = noProxy.map(NoProxyList.init)
        if explicitList?.matchesEveryHost == true { return nil }
        do {
            if let proxy {
                guard !proxy.allSatisfy(\.isWhitespace) else { return nil }
                return FixedProxyResolver(try ProxyRoute(proxyURL: proxy),
                                          noProxy: explicitList ?? NoProxyList(environment: environment))
            }
            let resolver = try EnvironmentProxyResolver(environment: environment, noProxy: explicitList)
            return resolver.isEmpty || resolver.noProxy.matchesEveryHost ? nil : resolver
        } catch let error as ClientError {
            throw TransferFailure(5, error.message)
        }
    }

    /// The TLS settings for an `https://` proxy (`--proxy-cacert`, `--proxy-insecure`), kept apart from the
    /// origin's (`--cacert`, `-k`), as curl does.
    var proxyTLS: TLSOptions {
        TLSOptions(validatesCertificate: !proxyInsecure, trustedCAFile: proxyCACertificate)
    }
}

