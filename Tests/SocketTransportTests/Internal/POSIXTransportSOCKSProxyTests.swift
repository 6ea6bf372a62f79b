import FoundationEssentials
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

/// SOCKS routes through `POSIXTransport` against a scripted SOCKS server (`ScriptedTCPServer`, plain system
/// calls): the bytes of SOCKS4, SOCKS4a and SOCKS5 requests (RFC 1928/1929), every failure reply as a typed
/// ``SOCKSError``, garbage and closed connections, the connect timeout, and relaying to a `LoopbackServer` origin
/// once the proxy grants the connection. microsocks covers SOCKS5 end to end in the interop suite.
@Suite struct POSIXTransportSOCKSProxyTests {
    private func proxied(_ routes: ProxyRoute..., overrides: [String: String] = [:]) -> POSIXTransport {
        POSIXTransport(configuration: .init(proxyResolver: ScriptedProxyResolver { _ in routes },
                                            addressOverrides: overrides))
    }

    /// A SOCKS5 server that reads the greeting, picks `method`, checks RFC 1929 credentials when `method` is 2,
    /// reads the request, answers `reply`, and relays to `origin` on success. What it read goes to `seen`.
    private func socks5Server(
        method: UInt8 = 0, accepts: Credential? = nil, reply: UInt8 = 0, origin: Int? = nil,
        seen: Locked<[[UInt8]]> = Locked([])
    ) -> ScriptedTCPServer {
        ScriptedTCPServer { connection in
            guard let head = connection.read(2), let methods = connection.read(Int(head[1])) else { return }
            seen.withLock { $0.append(head + methods) }
            connection.write([5, method])
            if method == 0xFF { return }
            if method == 2 {
                guard let version = connection.read(2), let user = connection.read(Int(version[1])),
                    let length = connection.read(1), let password = connection.read(Int(length[0]))
                else { return }
                seen.withLock { $0.append(version + user + length + password) }
                let ok = accepts.map { user == Array($0.user.utf8) && password == Array($0.password.utf8) } ?? false
                connection.write([1, ok ? 0 : 1])
                if !ok { return }
            }
            guard let request = connection.read(4) else { return }
            let rest: [UInt8]?
            switch request[3] {
            case 1: rest = connection.read(4 + 2)
            case 4: rest = connection.read(16 + 2)
            default:
                rest = connection.read(1).flatMap { length in connection.read(Int(length[0]) + 2).map { length + $0 } }
            }
            guard let rest else { return }
            seen.withLock { $0.append(request + rest) }
            connection.write([5, reply, 0, 1, 127, 0, 0, 1, 0x1F, 0x90])
            if reply == 0, let origin { connection.relay(toPort: origin) }
        }
    }

    // MARK: SOCKS5

    @Test(arguments: [true, false])
    func socks5SendsTheNameOrTheLocallyResolvedAddress(remote: Bool) async throws {
        let origin = try LoopbackServer { _ in .ok("through socks5") }
        defer { origin.shutdown() }
        let seen = Locked<[[UInt8]]>([])
        let proxy = socks5Server(origin: origin.port, seen: seen)
        defer { proxy.shutdown() }
        let route = ProxyRoute.socks5(host: "127.0.0.1", port: proxy.port, resolvesNamesRemotely: remote)
        let transport = proxied(route, overrides: ["origin.example:\(origin.port)": "127.0.0.1"])
        var request = testRequest(URL(string: "http://origin.example:\(origin.port)/s?q=1")!)
        request.headerFields[.proxyAuthorization] = "Basic bm90OmZvcnRoZW9yaWdpbg=="
        let (response, body) = try await fetch(transport, request)
        #expect(body == Array("through socks5".utf8))
        #expect(response.route == route)
        #expect(!response.isFromProxy)
        let port = [UInt8(origin.port >> 8), UInt8(origin.port & 0xFF)]
        let name = Array("origin.example".utf8)
        let expected: [UInt8] = remote
            ? [5, 1, 0, 3, UInt8(name.count)] + name + port : [5, 1, 0, 1, 127, 0, 0, 1] + port
        #expect(seen.withLock { $0 } == [[5, 1, 0], expected])
        // In origin form, and no Proxy-Authorization down the SOCKS connection.
        let recorded = try #require(origin.requests.first)
        #expect(recorded.target == "/s?q=1")
        #expect(recorded.header("Host") == "origin.example:\(origin.port)")
        #expect(recorded.header("Proxy-Authorization") == nil)
        // Kept alive and reused under its route.
        let (again, _) = try await fetch(transport, request)
        #expect(again.connectionID == response.connectionID)
        #expect(proxy.connectionCount == 1)
    }

    @Test func aConnectionThroughOneRouteNeverServesAnother() async throws {
        let origin = try LoopbackServer { _ in .ok("pooled") }
        defer { origin.shutdown() }
        let proxy = socks5Server(origin: origin.port)
        defer { proxy.shutdown() }
        let plain = ProxyRoute.socks5(host: "127.0.0.1", port: proxy.port)
        let local = ProxyRoute.socks5(host: "127.0.0.1", port: proxy.port, resolvesNamesRemotely: false)
        let transport = POSIXTransport(configuration: .init(proxyResolver: ScriptedProxyResolver { url in
            [url.path() == "/local" ? local : plain]
        }))
        let first = try await fetch(transport, testRequest(origin.url("/remote"))).0
        let second = try await fetch(transport, testRequest(origin.url("/remote"))).0
        let third = try await fetch(transport, testRequest(origin.url("/local"))).0
        #expect(first.connectionID == second.connectionID)
        #expect(third.connectionID != first.connectionID)
        #expect(third.route == local)
        #expect(proxy.connectionCount == 2)
    }

    @Test func socks5SendsTheUserNameAndPassword() async throws {
        let origin = try LoopbackServer { _ in .ok("authenticated") }
        defer { origin.shutdown() }
        let seen = Locked<[[UInt8]]>([])
        let credential = Credential(user: "sockser", password: "pa55")
        let proxy = socks5Server(method: 2, accepts: credential, origin: origin.port, seen: seen)
        defer { proxy.shutdown() }
        let transport = proxied(.socks5(host: "127.0.0.1", port: proxy.port, credential: credential))
        let (_, body) = try await fetch(transport, testRequest(origin.url("/")))
        #expect(body == Array("authenticated".utf8))
        let sent = seen.withLock { $0 }
        #expect(sent.first == [5, 2, 0, 2])
        #expect(sent.dropFirst().first == [1, 7] + Array("sockser".utf8) + [4] + Array("pa55".utf8))
    }

    @Test func aRejectedPasswordIsAnAuthenticationFailure() async throws {
        let proxy = socks5Server(method: 2, accepts: Credential(user: "sockser", password: "right"))
        defer { proxy.shutdown() }
        let route = ProxyRoute.socks5(host: "127.0.0.1", port: proxy.port,
                                      credential: Credential(user: "sockser", password: "wrong-s3cret"))
        // Not a failover: the next route is never tried.
        let transport = proxied(route, .direct)
        let error = await expectClientError(.authenticationFailed) {
            _ = try await fetch(transport, testRequest(URL(string: "http://127.0.0.1:1/")!))
        }
        #expect((error?.underlying as? SOCKSError)?.reason == .authenticationFailed)
        #expect(error?.description.contains("wrong-s3cret") == false)
    }

    @Test func noAcceptableMethodIsAnAuthenticationFailure() async throws {
        let proxy = socks5Server(method: 0xFF)
        defer { proxy.shutdown() }
        let transport = proxied(.socks5(host: "127.0.0.1", port: proxy.port))
        let error = await expectClientError(.authenticationFailed) {
            _ = try await fetch(transport, testRequest(URL(string: "http://origin.example/")!))
        }
        #expect((error?.underlying as? SOCKSError)?.reason == .noAcceptableMethod)
    }

    @Test(arguments: [
        (UInt8(1), SOCKSError.Reason.generalFailure, true), (2, .notAllowed, false), (3, .networkUnreachable, true),
        (4, .hostUnreachable, true), (5, .connectionRefused, true), (6, .ttlExpired, true),
        (7, .commandNotSupported, false), (8, .addressTypeNotSupported, false), (42, .unknownReply, false),
    ])
    func everySOCKS5FailureReplyIsTyped(reply: UInt8, reason: SOCKSError.Reason, failsOver: Bool) async throws {
        let proxy = socks5Server(reply: reply)
        defer { proxy.shutdown() }
        let next = try LoopbackServer { _ in .ok("next route") }
        defer { next.shutdown() }
        let url = URL(string: "http://origin.example/")!
        let alone = proxied(.socks5(host: "127.0.0.1", port: proxy.port))
        let error = await expectClientError(.connectFailed) { _ = try await fetch(alone, testRequest(url)) }
        #expect((error?.underlying as? SOCKSError) == SOCKSError(reason, replyCode: reply))
        let withNext = proxied(.socks5(host: "127.0.0.1", port: proxy.port), .http(host: "127.0.0.1", port: next.port))
        if failsOver {
            let (_, body) = try await fetch(withNext, testRequest(url))
            #expect(body == Array("next route".utf8))
        } else {
            await expectClientError(.connectFailed) { _ = try await fetch(withNext, testRequest(url)) }
            #expect(next.requests.isEmpty)
        }
    }

    // MARK: SOCKS4 and SOCKS4a

    @Test(arguments: [true, false])
    func socks4aSendsTheNameAndSocks4TheAddress(remote: Bool) async throws {
        let origin = try LoopbackServer { _ in .ok("through socks4") }
        defer { origin.shutdown() }
        let seen = Locked<[[UInt8]]>([])
        let proxy = ScriptedTCPServer { connection in
            guard let head = connection.read(8), let user = connection.readUntilNUL() else { return }
            let name = head[4...6] == [0, 0, 0] && head[7] != 0 ? connection.readUntilNUL() ?? [] : []
            seen.withLock { $0 = [head, user, name] }
            connection.write([0, 0x5A, 0, 0, 0, 0, 0, 0])
            connection.relay(toPort: origin.port)
        }
        defer { proxy.shutdown() }
        let route = remote
            ? ProxyRoute.socks4a(host: "127.0.0.1", port: proxy.port, user: "ident")
            : ProxyRoute.socks4(host: "127.0.0.1", port: proxy.port, user: "ident")
        #expect(route.description.hasPrefix(remote ? "socks4a://" : "socks4://"))
        let transport = proxied(route, overrides: ["origin.example:\(origin.port)": "127.0.0.1"])
        let (_, body) = try await fetch(transport, testRequest(URL(string: "http://origin.example:\(origin.port)/")!))
        #expect(body == Array("through socks4".utf8))
        let port = [UInt8(origin.port >> 8), UInt8(origin.port & 0xFF)]
        let expected: [[UInt8]] = remote
            ? [[4, 1] + port + [0, 0, 0, 1], Array("ident".utf8), Array("origin.example".utf8)]
            : [[4, 1] + port + [127, 0, 0, 1], Array("ident".utf8), []]
        #expect(seen.withLock { $0 } == expected)
    }

    @Test(arguments: [
        (UInt8(0x5B), SOCKSError.Reason.rejected, ClientError.Code.connectFailed),
        (0x5C, .identdUnreachable, .connectFailed), (0x5D, .identdMismatch, .connectFailed),
        (0x33, .malformedReply, .protocolViolation),
    ])
    func everySOCKS4FailureReplyIsTyped(reply: UInt8, reason: SOCKSError.Reason, code: ClientError.Code) async throws {
        let proxy = ScriptedTCPServer { connection in
            guard connection.read(8) != nil, connection.readUntilNUL() != nil, connection.readUntilNUL() != nil else {
                return
            }
            connection.write([0, reply, 0, 0, 0, 0, 0, 0])
        }
        defer { proxy.shutdown() }
        let transport = proxied(.socks4a(host: "127.0.0.1", port: proxy.port))
        let error = await expectClientError(code) {
            _ = try await fetch(transport, testRequest(URL(string: "http://origin.example/")!))
        }
        #expect((error?.underlying as? SOCKSError)?.reason == reason)
    }

    // MARK: Garbage, closes and timeouts

    @Test(arguments: ["socks5", "socks4a"])
    func aServerAnsweringGarbageIsAProtocolViolation(kind: String) async throws {
        let proxy = ScriptedTCPServer { connection in
            _ = connection.readSome()
            connection.write(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        defer { proxy.shutdown() }
        let route = kind == "socks5" ? ProxyRoute.socks5(host: "127.0.0.1", port: proxy.port)
            : .socks4a(host: "127.0.0.1", port: proxy.port)
        let transport = proxied(route, .direct)
        let error = await expectClientError(.protocolViolation) {
            _ = try await fetch(transport, testRequest(URL(string: "http://127.0.0.1:1/")!))
        }
        #expect((error?.underlying as? SOCKSError)?.reason == .malformedReply)
    }

    @Test func aServerClosingMidHandshakeFailsOver() async throws {
        let proxy = ScriptedTCPServer { connection in
            _ = connection.readSome()
            connection.write([5])  // half a reply
        }
        defer { proxy.shutdown() }
        let next = try LoopbackServer { _ in .ok("next") }
        defer { next.shutdown() }
        let url = URL(string: "http://origin.example/")!
        let error = await expectClientError(.connectFailed) {
            _ = try await fetch(proxied(.socks5(host: "127.0.0.1", port: proxy.port)), testRequest(url))
        }
        #expect((error?.underlying as? SOCKSError)?.reason == .closed)
        let transport = proxied(.socks5(host: "127.0.0.1", port: proxy.port), .http(host: "127.0.0.1", port: next.port))
        let (_, body) = try await fetch(transport, testRequest(url))
        #expect(body == Array("next".utf8))
    }

    @Test func aSilentServerHitsTheConnectTimeout() async throws {
        let proxy = ScriptedTCPServer { connection in
            _ = connection.readSome()
            _ = connection.readSome()  // never answers; returns when the client gives up
        }
        defer { proxy.shutdown() }
        var request = testRequest(URL(string: "http://origin.example/")!)
        request.options.connectTimeout = .milliseconds(300)
        let error = await expectClientError(.timedOut) {
            _ = try await fetch(proxied(.socks5(host: "127.0.0.1", port: proxy.port)), request)
        }
        #expect(error?.message.contains("SOCKS") == true)
    }
}
