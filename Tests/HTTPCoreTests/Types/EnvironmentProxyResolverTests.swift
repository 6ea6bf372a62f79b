import FoundationEssentials
import HTTPCore
import Testing

/// The proxy environment variables with curl's rules (libcurl-env(3) "[scheme]_proxy", "ALL_PROXY", "NO_PROXY";
/// everything.curl.dev "Proxy environment variables"), read from an injected environment.
@Suite struct EnvironmentProxyResolverTests {
    /// One row: the environment, a URL, and the route curl would take (its description, `DIRECT` for none).
    struct Row: Sendable, CustomTestStringConvertible {
        let environment: [String: String]
        let url: String
        let route: String
        var testDescription: String {
            environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                + " \(url) → \(route)"
        }
    }

    static let rows: [Row] = [
        // http_proxy is read in lower case only ("httpoxy").
        Row(environment: ["http_proxy": "http://p:3128"], url: "http://o/", route: "http://p:3128"),
        Row(environment: ["HTTP_PROXY": "http://p:3128"], url: "http://o/", route: "DIRECT"),
        Row(environment: ["HTTP_PROXY": "http://p:3128", "ALL_PROXY": "http://a:1"], url: "http://o/",
            route: "http://a:1"),
        // https_proxy, then HTTPS_PROXY; neither is used for http URLs, nor http_proxy for https URLs.
        Row(environment: ["https_proxy": "http://s:3128"], url: "https://o/", route: "http://s:3128"),
        Row(environment: ["HTTPS_PROXY": "http://S:3128"], url: "https://o/", route: "http://s:3128"),
        Row(environment: ["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2"], url: "https://o/",
            route: "http://lower:1"),
        Row(environment: ["https_proxy": "http://s:3128"], url: "http://o/", route: "DIRECT"),
        Row(environment: ["http_proxy": "http://p:3128"], url: "https://o/", route: "DIRECT"),
        // ALL_PROXY for every scheme without its own variable; the scheme's variable wins.
        Row(environment: ["all_proxy": "socks5h://a:1080"], url: "http://o/", route: "socks5h://a:1080"),
        Row(environment: ["ALL_PROXY": "socks5://a"], url: "https://o/", route: "socks5://a:1080"),
        Row(environment: ["all_proxy": "http://lower:1", "ALL_PROXY": "http://upper:2"], url: "http://o/",
            route: "http://lower:1"),
        Row(environment: ["all_proxy": "http://a:1", "http_proxy": "http://p:2"], url: "http://o/",
            route: "http://p:2"),
        Row(environment: ["all_proxy": "http://a:1", "https_proxy": "http://s:2"], url: "http://o/",
            route: "http://a:1"),
        // An empty variable counts as unset.
        Row(environment: ["https_proxy": "", "HTTPS_PROXY": "http://u:1"], url: "https://o/", route: "http://u:1"),
        Row(environment: ["http_proxy": " ", "all_proxy": "http://a:1"], url: "http://o/", route: "http://a:1"),
        // Scheme defaults: none means http://; port 1080 (443 for https://).
        Row(environment: ["http_proxy": "p"], url: "http://o/", route: "http://p:1080"),
        Row(environment: ["http_proxy": "p:8080/"], url: "http://o/", route: "http://p:8080"),
        Row(environment: ["https_proxy": "https://tls-proxy"], url: "https://o/", route: "https://tls-proxy:443"),
        Row(environment: ["all_proxy": "socks4://s"], url: "http://o/", route: "socks4://s:1080"),
        Row(environment: ["all_proxy": "socks4a://s:9"], url: "http://o/", route: "socks4a://s:9"),
        Row(environment: ["all_proxy": "SOCKS5H://s:9"], url: "http://o/", route: "socks5h://s:9"),
        Row(environment: ["http_proxy": "http://[::1]:3128"], url: "http://o/", route: "http://[::1]:3128"),
        // Credentials stay out of the description.
        Row(environment: ["http_proxy": "http://u:p@p:1"], url: "http://o/", route: "http://<redacted>@p:1"),
        // no_proxy, then NO_PROXY; * turns every proxy off.
        Row(environment: ["http_proxy": "http://p:1", "no_proxy": "o"], url: "http://o/", route: "DIRECT"),
        Row(environment: ["http_proxy": "http://p:1", "NO_PROXY": ".o.example"], url: "http://www.o.example/",
            route: "DIRECT"),
        Row(environment: ["http_proxy": "http://p:1", "no_proxy": "x", "NO_PROXY": "o"], url: "http://o/",
            route: "http://p:1"),
        Row(environment: ["all_proxy": "http://a:1", "no_proxy": "*"], url: "https://o/", route: "DIRECT"),
        Row(environment: ["http_proxy": "http://p:1", "no_proxy": "10.0.0.0/8"], url: "http://10.9.8.7/",
            route: "DIRECT"),
        Row(environment: ["http_proxy": "http://p:1", "no_proxy": "::1"], url: "http://[::1]:8/", route: "DIRECT"),
        // WebSocket URLs: their own variables, else the http/https ones.
        Row(environment: ["https_proxy": "http://s:1"], url: "wss://o/", route: "http://s:1"),
        Row(environment: ["ws_proxy": "http://w:1", "http_proxy": "http://p:1"], url: "ws://o/", route: "http://w:1"),
        Row(environment: [:], url: "http://o/", route: "DIRECT"),
    ]

    @Test(arguments: rows) func curlsRules(_ row: Row) throws {
        let resolver = try EnvironmentProxyResolver(environment: row.environment)
        let url = try #require(URL(string: row.url))
        #expect(resolver.routes(for: url).map(\.description) == [row.route])
    }

    @Test func credentialsArePercentDecodedAndNeverShown() throws {
        let resolver = try EnvironmentProxyResolver(environment: ["http_proxy": "http://us%40er:p%3Ass%20w@p:3128"])
        let route = resolver.route(for: try #require(URL(string: "http://o/")))
        #expect(route.credential?.user == "us@er")
        #expect(route.credential?.password == "p:ss w")
        #expect(!resolver.description.contains("us"))
        #expect(!resolver.description.contains("ss"))
        #expect(resolver.description.contains("http://<redacted>@p:3128"))
    }

    @Test func socks4CarriesOnlyAUserAndResolvesLocally() throws {
        let route = try ProxyRoute(proxyURL: "socks4://alice:ignored@s:1080")
        #expect(route.kind == .socks4a)
        #expect(!route.resolvesNamesRemotely)
        #expect(route.credential?.user == "alice")
        #expect(route.credential?.password == "")
        #expect(try ProxyRoute(proxyURL: "socks4a://s").resolvesNamesRemotely)
        #expect(try !ProxyRoute(proxyURL: "socks5://s").resolvesNamesRemotely)
        #expect(try ProxyRoute(proxyURL: "socks5h://s").resolvesNamesRemotely)
    }

    @Test(arguments: [
        "ftp://p:21", "http://", "http://p:0", "http://p:70000", "http://p:x", "http://[::1", "gopher://u:secret@p",
        "http://u:secret/x@p",
    ])
    func aBadProxyURLThrowsWithoutTheCredential(_ text: String) {
        #expect {
            _ = try EnvironmentProxyResolver(environment: ["http_proxy": text])
        } throws: { error in
            guard let error = error as? ClientError else { return false }
            return error.code == .invalidConfiguration && error.message.hasPrefix("http_proxy:")
                && !error.message.contains("secret")
        }
    }

    @Test func theEnvironmentIsReadOnceAndAnExplicitNoProxyReplacesIt() throws {
        var environment = ["http_proxy": "http://p:1", "no_proxy": "o"]
        let resolver = try EnvironmentProxyResolver(environment: environment)
        environment["no_proxy"] = nil
        let url = try #require(URL(string: "http://o/"))
        #expect(resolver.route(for: url) == .direct)
        let overridden = try EnvironmentProxyResolver(environment: environment, noProxy: NoProxyList(""))
        #expect(overridden.route(for: url) == .http(host: "p", port: 1))
        #expect(try EnvironmentProxyResolver(environment: [:]).isEmpty)
        #expect(try !EnvironmentProxyResolver(environment: ["all_proxy": "a"]).isEmpty)
    }

    @Test func aFixedResolverIsASIsManualSettingWithANoProxyList() throws {
        let resolver = FixedProxyResolver(host: "192.168.0.1", port: 3128, noProxy: NoProxyList("localhost"))
        #expect(resolver.routes(for: try #require(URL(string: "https://example.com/"))) == [
            .http(host: "192.168.0.1", port: 3128),
        ])
        #expect(resolver.routes(for: try #require(URL(string: "http://localhost:8080/"))) == [.direct])
        let socks = FixedProxyResolver(host: "s", port: 1080, kind: .socks5)
        #expect(socks.route.kind == .socks5)
        let parsed = try FixedProxyResolver(proxyURL: "https://u:secret@tls-proxy:8443")
        #expect(parsed.route.kind == .https && parsed.route.port == 8443)
        #expect(!parsed.description.contains("secret"))
    }
}
