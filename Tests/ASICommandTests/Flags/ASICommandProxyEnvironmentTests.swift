import FoundationEssentials
import HTTPTesting
import TestSupport
import Testing

/// `asi` reads the proxy variables of its environment, as curl does: `http_proxy` (never `HTTP_PROXY`),
/// `https_proxy`, `all_proxy` and `no_proxy` decide whether the bytes go through tinyproxy or straight to nginx.
/// tinyproxy's log names every request it carried; nginx's access log shows each request with the `Via` field
/// tinyproxy adds, empty for a direct one.
@Suite("asi: proxy environment", .serialized, .enabled(if: TinyproxyPeer.shouldRun && NginxPeer.shouldRun))
struct ASICommandProxyEnvironmentTests {
    /// Runs `asi -s` for `url` with `environment` (on top of this process's, proxy variables cleared first).
    static func run(
        _ url: URL, _ environment: [String: String], _ arguments: [String] = []
    ) async throws -> ASICommandRun {
        var cleared = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                       "no_proxy", "NO_PROXY"].reduce(into: [String: String]()) { $0[$1] = "" }
        cleared.merge(environment) { $1 }
        return try await ASICommandRun.run(["-s"] + arguments + [url.absoluteString], environment: cleared)
    }

    /// Whether nginx logged `path` once, through tinyproxy (`through == true`) or directly.
    static func nginxLogged(_ nginx: NginxPeer, _ path: String, through: Bool) -> Bool {
        let lines = nginx.accessLog.split(separator: "\n").filter { $0.contains("GET \(path) ") }
        return lines.count == 1 && lines[0].contains("tinyproxy") == through
    }

    @Test func httpProxyInLowerCaseOnlyAndAllProxy() async throws {
        try await withNginx { nginx in
            try await withTinyproxy { proxy in
                let proxyURL = "http://127.0.0.1:\(proxy.port)"
                let viaHTTP = try await Self.run(nginx.url("/hello.txt?http_proxy"), ["http_proxy": proxyURL])
                #expect(viaHTTP.status == 0 && viaHTTP.output == "hello\n", "\(viaHTTP.stderr)")
                #expect(proxy.log.contains("GET \(nginx.url("/hello.txt?http_proxy").absoluteString)"), "\(proxy.log)")
                #expect(Self.nginxLogged(nginx, "/hello.txt?http_proxy", through: true), "\(nginx.accessLog)")

                // HTTP_PROXY is what a CGI program gets from a request's Proxy: field: never read.
                let upper = try await Self.run(nginx.url("/hello.txt?HTTP_PROXY"), ["HTTP_PROXY": proxyURL])
                #expect(upper.status == 0 && upper.output == "hello\n", "\(upper.stderr)")
                #expect(!proxy.log.contains("HTTP_PROXY"), "\(proxy.log)")
                #expect(Self.nginxLogged(nginx, "/hello.txt?HTTP_PROXY", through: false), "\(nginx.accessLog)")

                // all_proxy without a scheme: http:// by default.
                let all = try await Self.run(nginx.url("/hello.txt?all_proxy"),
                                             ["ALL_PROXY": "127.0.0.1:\(proxy.port)"])
                #expect(all.status == 0 && all.output == "hello\n", "\(all.stderr)")
                #expect(Self.nginxLogged(nginx, "/hello.txt?all_proxy", through: true), "\(nginx.accessLog)")

                // https_proxy is not for http URLs.
                let other = try await Self.run(nginx.url("/hello.txt?https_proxy"), ["https_proxy": proxyURL])
                #expect(other.status == 0, "\(other.stderr)")
                #expect(Self.nginxLogged(nginx, "/hello.txt?https_proxy", through: false), "\(nginx.accessLog)")
            }
        }
    }

    @Test func httpsProxyOpensACONNECTTunnelToNginxOverTLS() async throws {
        try await withNginx { nginx in
            try await withTinyproxy { proxy in
                let url = nginx.url("/hello.txt?tunnel", on: .tls)
                let run = try await Self.run(url, ["HTTPS_PROXY": "http://127.0.0.1:\(proxy.port)"],
                                             ["--cacert", nginx.certificates.caPath])
                #expect(run.status == 0 && run.output == "hello\n", "\(run.stderr)")
                #expect(proxy.log.contains("CONNECT localhost:\(nginx.port(.tls))"), "\(proxy.log)")
                // Inside the tunnel nginx sees the request itself, without a Via field.
                #expect(Self.nginxLogged(nginx, "/hello.txt?tunnel", through: false), "\(nginx.accessLog)")
            }
        }
    }

    @Test func noProxyAndTheFlagsThatOverrideTheEnvironment() async throws {
        try await withNginx { nginx in
            try await withTinyproxy { proxy in
                let proxies = ["http_proxy": "http://127.0.0.1:\(proxy.port)", "all_proxy": "127.0.0.1:\(proxy.port)"]
                let cases: [(String, [String: String], [String], Bool)] = [
                    ("no_proxy-address", ["no_proxy": "127.0.0.1"], [], false),
                    ("NO_PROXY-cidr", ["NO_PROXY": "10.0.0.0/8, 127.0.0.0/8"], [], false),
                    ("no_proxy-port", ["no_proxy": "127.0.0.1:\(nginx.port(.plain))"], [], false),
                    ("no_proxy-other-port", ["no_proxy": "127.0.0.1:1"], [], true),
                    ("no_proxy-star", ["no_proxy": "*"], [], false),
                    ("noproxy-empty", ["no_proxy": "*"], ["--noproxy", ""], true),
                    ("noproxy-flag", [:], ["--noproxy", "example.com,127.0.0.1"], false),
                    ("x-empty", [:], ["-x", ""], false),
                    ("x-with-no_proxy", ["no_proxy": "127.0.0.1"], ["-x", "http://127.0.0.1:\(proxy.port)"], false),
                ]
                for (name, environment, arguments, through) in cases {
                    let path = "/hello.txt?\(name)"
                    let run = try await Self.run(nginx.url(path), proxies.merging(environment) { $1 }, arguments)
                    #expect(run.status == 0 && run.output == "hello\n", "\(name): \(run.stderr)")
                    #expect(Self.nginxLogged(nginx, path, through: through), "\(name): \(nginx.accessLog)")
                    #expect(proxy.log.contains("GET \(nginx.url(path).absoluteString)") == through,
                            "\(name): \(proxy.log)")
                }
            }
        }
    }

    @Test func aBadProxyVariableFailsWithoutShowingItsPassword() async throws {
        let origin = try LoopbackServer { _ in .ok("never") }
        defer { origin.shutdown() }
        let run = try await Self.run(origin.url("/"), ["all_proxy": "gopher://u:s3cr3t-pw@127.0.0.1:1"], ["-S"])
        #expect(run.status == 5, "\(run.stderr)")
        #expect(run.stderr.contains("all_proxy") && !run.stderr.contains("s3cr3t-pw"), "\(run.stderr)")
        #expect(origin.requests.isEmpty)
    }
}
