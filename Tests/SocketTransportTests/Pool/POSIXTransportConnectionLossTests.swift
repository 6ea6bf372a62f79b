import FoundationEssentials
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A connection that breaks under an exchange: reset while the answer is read (`receiveFailed`, curl's 56) or while
/// the request is sent (`sendFailed`, 55), a stalled upload, and the recoveries that must survive the codes: a
/// stale keep-alive connection retried, a proxy that resets during `CONNECT` failed over. Rows of
/// `Docs/FaultMatrix.md`.
@Suite struct POSIXTransportConnectionLossTests {
    @Test func aResetMidBodyIsReceiveFailedFromTheBody() async throws {
        let server = try LoopbackServer { _ in
            .truncated(body: Array(repeating: 7, count: 1000), announcedLength: 100_000, reset: true)
        }
        defer { server.shutdown() }
        let response = try await POSIXTransport().send(testRequest(server.url("/r")), context: testContext())
        #expect(response.status == .ok)
        var received = 0
        let error = await expectClientError(.receiveFailed) {
            for try await chunk in response.body { received += chunk.count }
        }
        #expect((error?.underlying as? SyscallError)?.errno == ECONNRESET)
        #expect(received <= 1000)
    }

    @Test func aBodyLongerThanItsContentLengthIsCutAndItsConnectionIsNotReused() async throws {
        // A lying Content-Length (3, then 8 bytes): the extra bytes are no response of ours and never the next one.
        let server = try LoopbackServer { _ in
            .raw("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdefgh", thenClose: false)
        }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (first, body) = try await fetch(transport, testRequest(server.url("/a")))
        let (second, again) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(body == Array("abc".utf8))
        #expect(again == Array("abc".utf8))
        #expect(first.connectionID != second.connectionID)
        #expect(server.connectionCount == 2)
    }

    @Test func aStaleReusedConnectionThatResetsIsRetriedForGET() async throws {
        // The second request on any connection is reset before a byte of its answer: a keep-alive race.
        let server = try LoopbackServer { request in
            request.indexOnConnection == 1 ? .resetWithoutResponse : .ok("fresh")
        }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (first, _) = try await fetch(transport, testRequest(server.url("/a")))
        let (second, body) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(body == Array("fresh".utf8))
        #expect(first.connectionID != second.connectionID)
        #expect(server.requests.map(\.path) == ["/a", "/b", "/b"])
    }

    @Test func aStaleReusedConnectionThatResetsIsNotRetriedForPOST() async throws {
        let server = try LoopbackServer { request in
            request.indexOnConnection == 1 ? .resetWithoutResponse : .ok("fresh")
        }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        var request = testRequest(server.url("/p"), method: .post, body: .string("data"))
        request.options.persistentConnection = true
        _ = try await fetch(transport, request)
        await expectClientError(.receiveFailed) { _ = try await fetch(transport, request) }
        #expect(server.requests.count == 2)
    }

    @Test func aResetWhileTheBodyIsSentIsSendFailed() async throws {
        // The server reads a little of a 32 MiB upload and closes with the rest unread: the kernel resets.
        let server = ScriptedTCPServer { connection in _ = connection.readSome() }
        defer { server.shutdown() }
        let body = RequestBody.bytes([UInt8](repeating: 1, count: 32 << 20))
        let url = URL(string: "http://127.0.0.1:\(server.port)/upload")!
        let error = await expectClientError(.sendFailed) {
            _ = try await fetch(POSIXTransport(), testRequest(url, method: .put, body: body))
        }
        let errno = (error?.underlying as? SyscallError)?.errno
        #expect(errno == ECONNRESET || errno == EPIPE, "\(String(describing: error))")
    }

    @Test func aStalledUploadTimesOut() async throws {
        // The server reads the head and a little body, then stops reading: the socket fills and the send waits.
        let release = Mutex(false)
        let server = ScriptedTCPServer { connection in
            _ = connection.readSome()
            while !release.withLock({ $0 }) { usleep(10_000) }
        }
        defer {
            release.withLock { $0 = true }
            server.shutdown()
        }
        let body = RequestBody.bytes([UInt8](repeating: 1, count: 64 << 20))
        let url = URL(string: "http://127.0.0.1:\(server.port)/upload")!
        let request = testRequest(url, method: .put, body: body, timeout: .seconds(1))
        let error = await expectClientError(.timedOut) { _ = try await fetch(POSIXTransport(), request) }
        #expect(error?.message.contains("Nothing was sent or received for 1 s") == true, "\(String(describing: error))")
    }

    @Test func aProxyThatResetsDuringCONNECTFailsOver() async throws {
        let proxy = ScriptedTCPServer { connection in
            _ = connection.readSome()
            connection.reset()
        }
        defer { proxy.shutdown() }
        let next = try LoopbackServer { _ in .status(407, headers: [("Proxy-Authenticate", "Basic realm=\"p\"")]) }
        defer { next.shutdown() }
        let nextRoute = ProxyRoute.http(host: "127.0.0.1", port: next.port)
        let routes = [ProxyRoute.http(host: "127.0.0.1", port: proxy.port), nextRoute]
        let transport = POSIXTransport(configuration: .init(proxyResolver: ScriptedProxyResolver { _ in routes }))
        let (response, _) = try await fetch(transport, testRequest(URL(string: "https://origin.example:8443/")!))
        #expect(response.route == nextRoute)
        #expect(proxy.connectionCount == 1)
    }

    @Test func aSOCKSProxyThatResetsMidHandshakeFailsOver() async throws {
        let proxy = ScriptedTCPServer { connection in
            _ = connection.readSome()
            connection.reset()
        }
        defer { proxy.shutdown() }
        let next = try LoopbackServer { _ in .ok("next") }
        defer { next.shutdown() }
        let routes = [ProxyRoute.socks5(host: "127.0.0.1", port: proxy.port), .http(host: "127.0.0.1", port: next.port)]
        let transport = POSIXTransport(configuration: .init(proxyResolver: ScriptedProxyResolver { _ in routes }))
        let (_, body) = try await fetch(transport, testRequest(URL(string: "http://origin.example/")!))
        #expect(body == Array("next".utf8))
    }
}
