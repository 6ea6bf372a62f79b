import FoundationEssentials
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

/// Parking of proxies that failed: the pure ordering rules of `ProxyParking` with times passed in, and the
/// transport skipping a proxy that answered `502` to `CONNECT` until its time is up (or trying it anyway when it
/// is the only route). Also a proxy that closes the connection after granting `CONNECT`.
@Suite struct POSIXTransportProxyParkingTests {
    private static let a = ProxyRoute.http(host: "a", port: 1)
    private static let b = ProxyRoute.socks5(host: "b", port: 2)
    private static let second: UInt64 = 1_000_000_000

    @Test func parkedProxiesGoToTheEndUntilTheirTimeIsUp() {
        let parking = ProxyParking(duration: 30 * Self.second)
        #expect(parking.ordered([Self.a, Self.b, .direct], now: 0) == [Self.a, Self.b, .direct])
        parking.park(Self.a, now: 10 * Self.second)
        #expect(parking.ordered([Self.a, Self.b, .direct], now: 11 * Self.second) == [Self.b, .direct, Self.a])
        // Every route parked: all are still tried, in the resolver's order.
        parking.park(Self.b, now: 12 * Self.second)
        #expect(parking.ordered([Self.a, Self.b], now: 13 * Self.second) == [Self.a, Self.b])
        // The same proxy with another credential is the same proxy.
        var withUser = Self.a
        withUser.credential = Credential(user: "u", password: "p")
        #expect(parking.isParked(withUser, now: 13 * Self.second))
        // Time up for a; b answered.
        #expect(parking.ordered([Self.a, .direct], now: 41 * Self.second) == [Self.a, .direct])
        parking.release(Self.b)
        #expect(!parking.isParked(Self.b, now: 13 * Self.second))
    }

    @Test func directRoutesAndAZeroDurationParkNothing() {
        let parking = ProxyParking(duration: 30 * Self.second)
        parking.park(.direct, now: 0)
        #expect(!parking.isParked(.direct, now: 1))
        let never = ProxyParking(duration: 0)
        never.park(Self.a, now: 0)
        #expect(never.ordered([Self.a, .direct], now: 1) == [Self.a, .direct])
    }

    private func transport(_ routes: [ProxyRoute], parking: Duration = .seconds(30)) -> POSIXTransport {
        POSIXTransport(configuration: .init(proxyResolver: ScriptedProxyResolver { _ in routes },
                                            proxyParkingDuration: parking))
    }

    private static let origin = URL(string: "https://origin.example:8443/")!

    @Test(arguments: [true, false])
    func aProxyThatAnswered502IsSkippedByTheNextRequest(parks: Bool) async throws {
        let failing = try LoopbackServer { _ in .status(502) }
        defer { failing.shutdown() }
        let working = try LoopbackServer { _ in .status(407, headers: [("Proxy-Authenticate", "Basic realm=\"p\"")]) }
        defer { working.shutdown() }
        let workingRoute = ProxyRoute.http(host: "127.0.0.1", port: working.port)
        let transport = transport([.http(host: "127.0.0.1", port: failing.port), workingRoute],
                                  parking: parks ? .seconds(3600) : .zero)
        for _ in 0..<2 {
            let (response, _) = try await fetch(transport, testRequest(Self.origin))
            #expect(response.route == workingRoute)
        }
        #expect(failing.requests.count == (parks ? 1 : 2))
        #expect(working.requests.count == 2)
    }

    @Test func aParkedProxyThatIsTheOnlyRouteIsTriedAnyway() async throws {
        let failing = try LoopbackServer { _ in .status(502) }
        defer { failing.shutdown() }
        let transport = transport([.http(host: "127.0.0.1", port: failing.port)], parking: .seconds(3600))
        for _ in 0..<2 {
            await expectClientError(.connectFailed) { _ = try await fetch(transport, testRequest(Self.origin)) }
        }
        #expect(failing.requests.count == 2)
    }

    @Test func aProxyClosingAfterGrantingCONNECTFailsTheTLSHandshake() async throws {
        let proxy = ScriptedTCPServer { connection in
            var head: [UInt8] = []
            while !head.ends(with: Array("\r\n\r\n".utf8)) {
                let more = connection.readSome()
                guard !more.isEmpty else { return }
                head += more
            }
            connection.write(Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8))
            _ = connection.readSome()  // the ClientHello: closing with it unread would send a reset, not a close
        }
        defer { proxy.shutdown() }
        let transport = transport([.http(host: "127.0.0.1", port: proxy.port)])
        await expectClientError(.tlsHandshakeFailed) { _ = try await fetch(transport, testRequest(Self.origin)) }
    }

    @Test func aProxyClosingWithoutAnsweringCONNECTFailsOver() async throws {
        let proxy = ScriptedTCPServer { connection in _ = connection.readSome() }
        defer { proxy.shutdown() }
        let next = try LoopbackServer { _ in .status(407, headers: [("Proxy-Authenticate", "Basic realm=\"p\"")]) }
        defer { next.shutdown() }
        let nextRoute = ProxyRoute.http(host: "127.0.0.1", port: next.port)
        let transport = transport([.http(host: "127.0.0.1", port: proxy.port), nextRoute])
        let (response, _) = try await fetch(transport, testRequest(Self.origin))
        #expect(response.route == nextRoute)
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
