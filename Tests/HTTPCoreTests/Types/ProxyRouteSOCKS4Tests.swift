import HTTPCore
import Testing

/// SOCKS4 as a `socks4a` route that resolves names locally, beside `socks5`/`socks5h`.
@Suite struct ProxyRouteSOCKS4Tests {
    @Test func socks4IsASocks4aRouteWithLocalNames() {
        let socks4 = ProxyRoute.socks4(host: "Proxy.Example", port: 1080, user: "ident")
        let socks4a = ProxyRoute.socks4a(host: "proxy.example", port: 1080, user: "ident")
        #expect(socks4.kind == .socks4a)
        #expect(!socks4.resolvesNamesRemotely)
        #expect(socks4a.resolvesNamesRemotely)
        #expect(socks4 != socks4a)
        #expect(socks4.isSameProxy(as: socks4a))
        #expect(socks4.description == "socks4://<redacted>@proxy.example:1080")
        #expect(socks4a.description == "socks4a://<redacted>@proxy.example:1080")
    }

    @Test func onlySOCKSRoutesResolveNamesLocally() {
        #expect(ProxyRoute(kind: .http, host: "p", port: 3128, resolvesNamesRemotely: false).resolvesNamesRemotely)
        #expect(ProxyRoute(kind: .https, host: "p", port: 443, resolvesNamesRemotely: false).resolvesNamesRemotely)
        let socks5 = ProxyRoute.socks5(host: "p", port: 1080, resolvesNamesRemotely: false)
        #expect(!socks5.resolvesNamesRemotely)
        #expect(socks5.description == "socks5://p:1080")
        var changed = ProxyRoute.socks4a(host: "p", port: 1080)
        changed.resolvesNamesRemotely = false
        #expect(changed == .socks4(host: "p", port: 1080))
    }
}
