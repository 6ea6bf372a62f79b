import HTTPCore
import ProxyPAC
import Testing

/// The answer parser: order, keywords in any case, extra spaces, default ports, and entries that are skipped.
@Suite("PAC answers as routes")
struct PACAnswerTests {
    @Test func everyKindInOrder() {
        let routes = PACAnswer.routes(from: "PROXY a.example:8080; SOCKS5 b.example:1080; HTTPS c.example:8443; DIRECT")
        #expect(routes == [
            .http(host: "a.example", port: 8080), .socks5(host: "b.example", port: 1080),
            .https(host: "c.example", port: 8443), .direct,
        ])
    }

    @Test func anyCaseAndExtraSpaces() {
        let routes = PACAnswer.routes(from: "  proxy   A.Example:3128 ;;\tSocks5  s:1 ;  direct  ")
        #expect(routes == [.http(host: "a.example", port: 3128), .socks5(host: "s", port: 1), .direct])
    }

    @Test func defaultPortsAndOtherKeywords() {
        let routes = PACAnswer.routes(from: "PROXY p; HTTP h; HTTPS s; SOCKS k; SOCKS4 f; SOCKS5 g")
        #expect(routes == [
            .http(host: "p", port: 80), .http(host: "h", port: 80), .https(host: "s", port: 443),
            .socks4a(host: "k", port: 1080), .socks4a(host: "f", port: 1080), .socks5(host: "g", port: 1080),
        ])
        #expect(routes.last?.resolvesNamesRemotely == true)
    }

    /// Found by `FuzzPACAnswer` (issue 33's long run): `PROXY [[eth0]` read as a proxy named `[eth0`, which is no
    /// host and was written back as `PROXY [eth0:80`, an entry that reads as nothing.
    @Test func bracketsLeftInsideAHostAreRefused() {
        #expect(PACAnswer.routes(from: "PROXY [[eth0]") == [.direct])
        #expect(PACAnswer.routes(from: "PROXY a]b:80; PROXY [x[y]:1; SOCKS5 [::1]") == [.socks5(host: "::1", port: 1080)])
    }

    /// Found by `FuzzPACAnswer` after 852,258 executions (issue 33): a host that was a lone combining mark (U+0312)
    /// was written back after a space it then joined into one Character, and read back as nothing.
    @Test func hostsOutsidePrintableASCIIAreRefused() {
        #expect(PACAnswer.routes(from: "PROXY \u{312}:80; PROXY b\u{fc}cher.example:80") == [.direct])
        #expect(PACAnswer.routes(from: "PROXY xn--bcher-kva.example:80") == [.http(host: "xn--bcher-kva.example", port: 80)])
    }

    @Test func ipv6Proxies() {
        #expect(PACAnswer.routes(from: "PROXY [::1]:8080") == [.http(host: "::1", port: 8080)])
        #expect(PACAnswer.routes(from: "PROXY [2001:db8::1]") == [.http(host: "2001:db8::1", port: 80)])
    }

    @Test func unreadableEntriesAreSkipped() {
        let routes = PACAnswer.routes(
            from: "QUIC q:443; PROXY; PROXY a:0; PROXY b:99999; PROXY c:x; PROXY d e; DIRECT x; PROXY ok:1")
        #expect(routes == [.http(host: "ok", port: 1)])
    }

    @Test func nothingUsableMeansDirect() {
        #expect(PACAnswer.routes(from: "") == [.direct])
        #expect(PACAnswer.routes(from: " ; ; ") == [.direct])
        #expect(PACAnswer.routes(from: "BOGUS x:1") == [.direct])
    }

    @Test func theHostAPACTesterPasses() {
        #expect(PACProxyResolver.host(inURL: "http://www.example.com:8080/a") == "www.example.com")
        #expect(PACProxyResolver.host(inURL: "https://user:pw@x/") == "user")
        #expect(PACProxyResolver.host(inURL: "no-scheme") == "")
    }
}
