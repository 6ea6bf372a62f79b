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

/// Connection reuse, expiry, limits and the stale-connection retry (ASIHTTPRequest §18).
@Suite struct POSIXTransportKeepAliveTests {
    @Test func tenRequestsShareOneConnection() async throws {
        let server = try LoopbackServer { _ in .ok("hi") }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        var ids: Set<UInt64?> = []
        for _ in 0..<10 {
            let (response, body) = try await fetch(transport, testRequest(server.url("/k")))
            #expect(body == Array("hi".utf8))
            ids.insert(response.connectionID)
        }
        #expect(ids.count == 1)
        #expect(server.connectionCount == 1)
        #expect(server.requests.map(\.indexOnConnection) == Array(0..<10))
    }

    @Test func connectionCloseIsNotReused() async throws {
        let server = try LoopbackServer { _ in .status(200, headers: [("Connection", "close")], body: [1]) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (first, _) = try await fetch(transport, testRequest(server.url("/a")))
        let (second, _) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(first.connectionID != second.connectionID)
        #expect(server.connectionCount == 2)
    }

    @Test func http10ResponseWithoutKeepAliveIsNotReused() async throws {
        let server = try LoopbackServer { _ in .raw("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi", thenClose: false) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (first, body) = try await fetch(transport, testRequest(server.url("/a")))
        #expect(body == Array("hi".utf8))
        let (second, _) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(first.connectionID != second.connectionID)
        #expect(server.connectionCount == 2)
    }

    @Test func http10ResponseWithKeepAliveIsReused() async throws {
        let server = try LoopbackServer { _ in
            .raw("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nhi", thenClose: false)
        }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (first, _) = try await fetch(transport, testRequest(server.url("/a")))
        let (second, _) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(first.connectionID == second.connectionID)
        #expect(server.connectionCount == 1)
    }

    @Test(arguments: [(5, false), (6, true), (100, true)])
    func keepAliveMaxAboveFiveIsNeededForReuse(max: Int, reused: Bool) async throws {
        let server = try LoopbackServer { _ in
            .status(200, headers: [("Keep-Alive", "timeout=30, max=\(max)")], body: [1])
        }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (first, _) = try await fetch(transport, testRequest(server.url("/a")))
        let (second, _) = try await fetch(transport, testRequest(server.url("/b")))
        #expect((first.connectionID == second.connectionID) == reused)
        #expect(server.connectionCount == (reused ? 1 : 2))
    }

    @Test func keepAliveTimeoutFromTheServerExpiresIdleConnections() async throws {
        let server = try LoopbackServer { _ in .status(200, headers: [("Keep-Alive", "timeout=0, max=100")], body: [1]) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (first, _) = try await fetch(transport, testRequest(server.url("/a")))
        let (second, _) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(first.connectionID != second.connectionID)
    }

    @Test func persistentConnectionTimeoutExpiresIdleConnections() async throws {
        let server = try LoopbackServer { _ in .ok("x") }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        var request = testRequest(server.url("/a"))
        request.options.persistentConnectionTimeout = .milliseconds(50)
        let (first, _) = try await fetch(transport, request)
        try await Task.sleep(for: .milliseconds(200))
        let (second, _) = try await fetch(transport, request)
        #expect(first.connectionID != second.connectionID)
        // The expired connection was closed when the second request started.
        #expect(await eventually { server.openConnectionCount == 1 })
    }

    @Test func nonPersistentRequestClosesItsConnection() async throws {
        let server = try LoopbackServer { _ in .ok("x") }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        var request = testRequest(server.url("/a"))
        request.options.persistentConnection = false
        let (first, _) = try await fetch(transport, request)
        let (second, _) = try await fetch(transport, request)
        #expect(first.connectionID != second.connectionID)
        #expect(server.requests.allSatisfy { $0.header("Connection") == "close" })
    }

    @Test func staleReusedConnectionIsRetriedOnceForGET() async throws {
        // The second request on any connection finds it closed: the server read it and hung up.
        let server = try LoopbackServer { request in request.indexOnConnection == 1 ? .closeWithoutResponse : .ok("fresh") }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (first, _) = try await fetch(transport, testRequest(server.url("/a")))
        let (second, body) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(body == Array("fresh".utf8))
        #expect(first.connectionID != second.connectionID)
        #expect(server.connectionCount == 2)
        #expect(server.requests.map(\.path) == ["/a", "/b", "/b"])
    }

    @Test func staleReusedConnectionIsNotRetriedForPOST() async throws {
        let server = try LoopbackServer { request in request.indexOnConnection == 1 ? .closeWithoutResponse : .ok("fresh") }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        var request = testRequest(server.url("/p"), method: .post, body: .string("data"))
        request.options.persistentConnection = true
        _ = try await fetch(transport, request)
        await expectClientError(.emptyResponse) { _ = try await fetch(transport, request) }
        #expect(server.requests.count == 2)
        #expect(server.connectionCount == 1)
    }

    @Test func idleConnectionClosedByTheServerIsNotReused() async throws {
        let server = try LoopbackServer { _ in .ok("once").followed(by: .close) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        var request = testRequest(server.url("/p"), method: .post, body: .string("data"))
        request.options.persistentConnection = true
        let (first, _) = try await fetch(transport, request)
        #expect(await eventually { server.openConnectionCount == 0 })
        // The pool notices the close before sending, so even a POST goes through on a new connection.
        let (second, _) = try await fetch(transport, request)
        #expect(first.connectionID != second.connectionID)
    }

    @Test func perHostLimitIsRespected() async throws {
        let inFlight = Locked((now: 0, peak: 0))
        let server = try LoopbackServer { _ in
            inFlight.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
            usleep(30_000)
            inFlight.withLock { $0.now -= 1 }
            return .ok("slow")
        }
        defer { server.shutdown() }
        let transport = POSIXTransport(configuration: .init(maxConnectionsPerHost: 2))
        try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for index in 0..<10 {
                group.addTask { try await fetch(transport, testRequest(server.url("/\(index)"))).1 }
            }
            for try await body in group { #expect(body == Array("slow".utf8)) }
        }
        #expect(server.connectionCount <= 2)
        #expect(inFlight.withLock { $0.peak } <= 2)
        #expect(transport.core.pool.openCount(PoolKey(scheme: "http", host: "127.0.0.1", port: server.port)) <= 2)
    }

    @Test func twoHundredConcurrentRequestsUseABoundedNumberOfThreads() async throws {
        let server = try LoopbackServer { request in .ok(request.path) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let (_, body) = try await fetch(transport, testRequest(server.url("/\(index)")))
                    #expect(body == Array("/\(index)".utf8))
                }
            }
            try await group.waitForAll()
        }
        #expect(server.requests.count == 200)
        #expect(server.connectionCount <= 8)
        #expect(transport.core.loops.startedLoopCount == 1)
        #expect(transport.core.resolver.threadCount == 0)
    }

    @Test func tlsOptionsSeparatePoolKeys() {
        let validating = PoolKey(scheme: "https", host: "h", port: 443, tls: TLSOptions())
        let lax = PoolKey(scheme: "https", host: "h", port: 443, tls: TLSOptions(validatesCertificate: false))
        #expect(validating != lax)
    }

    @Test func shutdownIsIdempotentAndLaterRequestsFail() async throws {
        let server = try LoopbackServer { _ in .ok("x") }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        _ = try await fetch(transport, testRequest(server.url("/a")))
        try await transport.shutdown()
        try await transport.shutdown()
        #expect(await eventually { server.openConnectionCount == 0 })
        await expectClientError(.connectFailed) { _ = try await fetch(transport, testRequest(server.url("/b"))) }
    }
}
