// Fuzzes what a PAC script's FindProxyForURL may return (ProxyPAC's PACAnswer): any string at all, since the
// script is the network's.
//
// Input: the answer, as UTF-8 (lossy). Invariants: one to PACAnswer.maxRoutes routes; a proxy route has a host
// without spaces, ';', '/' or '@' and a port in 1...65535; the routes written back as an answer (keyword,
// host and port, IPv6 literals in brackets) read back as the same routes.
import FuzzSupport
import HTTPCore
import ProxyPAC

func keyword(_ kind: ProxyRoute.Kind) -> String {
    switch kind {
    case .http: "PROXY"
    case .https: "HTTPS"
    case .socks4a: "SOCKS4"
    case .socks5: "SOCKS5"
    default: "DIRECT"
    }
}

func entry(_ route: ProxyRoute) -> String {
    guard route.kind != .direct else { return "DIRECT" }
    let host = route.host.contains(":") ? "[\(route.host)]" : route.host
    return "\(keyword(route.kind)) \(host):\(route.port)"
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let answer = String(decoding: input.bytes, as: UTF8.self)
    let routes = PACAnswer.routes(from: answer)
    fuzzCheck(!routes.isEmpty && routes.count <= PACAnswer.maxRoutes, "\(routes.count) routes")
    for route in routes where route.kind != .direct {
        fuzzCheck(!route.host.isEmpty, "a proxy route without a host")
        fuzzCheck((1...65535).contains(route.port), "port \(route.port)")
        let forbidden: Set<Character> = [" ", "\t", "\r", "\n", ";", "/", "@"]
        fuzzCheck(!route.host.contains(where: forbidden.contains), "host \(route.host.debugDescription)")
    }
    let written = routes.map(entry).joined(separator: "; ")
    let again = PACAnswer.routes(from: written)
    fuzzCheck(again == routes, "routes changed when written back as \(written.debugDescription)")
    return 0
}

runLibFuzzer { fuzz($0, $1) }
