import FoundationEssentials
import Glibc
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import Testing
import TestSupport

/// The library in the test process over the impaired link, for what asi and curl show in the other suites: each
/// stall ends with a typed ``ClientError`` (`timedOut`, stage `transport`) no earlier than its limit, uploads and a
/// queue of 100 requests complete. The suite's time limit is the "never a hang": a request that never ended would
/// fail it. No upper bound is put on a single request (that would time the cooperative pool, which a whole-suite
/// run on two busy cores stalls for a minute and more).
@Suite(
    "Impaired link: the library's faults", .serialized, .timeLimit(.minutes(10)),
    .enabled(if: LinkFixture.canRun, LinkFixture.skipReason))
struct ImpairedLibraryFaultTests {
    /// Sends `request` and expects `timedOut` from the transport, no earlier than `atLeast`, with `message` in its
    /// text.
    private func expectTimedOut(
        _ request: Request, on link: ImpairedLink, message: String, atLeast: Duration
    ) async throws {
        let transport = try LinkFixture.clientSideTransport(link)
        let client = Client(transport: transport)
        let started = ContinuousClock.now
        do {
            let response = try await LinkFixture.send(request, client, transport, namespace: link.namespaceID(.client))
            Issue.record("a stalled transfer returned \(response.status) with \(response.body.count) bytes")
        } catch let error as ClientError {
            #expect(error.code == .timedOut && error.stage == .transport, "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= atLeast, "gave up after \(elapsed)")
        try await client.shutdown()
    }

    @Test func aBlackholeMidTransferEndsAtTheRequestTimeout() async throws {
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": LinkFixture.body(4 << 20)])
        try link.set(.s2c, "delay_ms=10 rate=2000000 blackhole_after=\(1 << 20)")
        var request = Request(url: URL(string: LinkFixture.url("/big.bin"))!)
        request.options.timeout = .seconds(2)
        try await expectTimedOut(request, on: link, message: "2", atLeast: .seconds(2))
        #expect(try link.stats(.s2c).dropped > 0, "the blackhole dropped nothing")
        withExtendedLifetime(nginx) {}
    }

    @Test func aBlackholeMidTransferEndsAtTheLowSpeedLimit() async throws {
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": LinkFixture.body(4 << 20)])
        try link.set(.s2c, "delay_ms=10 rate=2000000 blackhole_after=\(1 << 20)")
        var request = Request(url: URL(string: LinkFixture.url("/big.bin"))!)
        request.options.timeout = .seconds(60)
        request.options.lowSpeedLimit = LowSpeedLimit(bytesPerSecond: 50_000, duration: .seconds(2))
        try await expectTimedOut(
            request, on: link, message: "slower than 50000 bytes per second", atLeast: .seconds(2))
        withExtendedLifetime(nginx) {}
    }

    @Test func aConnectToABlackholedAddressEndsAtTheConnectTimeout() async throws {
        let link = try ImpairedLink()
        var request = Request(url: URL(string: "http://\(ImpairedLink.blackholedAddress)/")!)
        request.options.timeout = .seconds(60)
        request.options.connectTimeout = .seconds(2)
        try await expectTimedOut(request, on: link, message: "", atLeast: .seconds(2))
        #expect(try link.stats(.c2s).packets > 0, "no SYN reached the link")
    }

    @Test func aConnectWhileTheLinkIsDownFailsAtOnceWithConnectFailed() async throws {
        let link = try ImpairedLink()
        let transport = try LinkFixture.clientSideTransport(link)
        let client = Client(transport: transport)
        try link.command("link down")
        var request = Request(url: URL(string: LinkFixture.url("/"))!)
        request.options.timeout = .seconds(60)
        do {
            let response = try await LinkFixture.send(request, client, transport, namespace: link.namespaceID(.client))
            Issue.record("a connect with no route returned \(response.status)")
        } catch let error as ClientError {
            #expect(error.code == .connectFailed && error.stage == .transport, "\(error)")
            let errno = (error.underlying as? SyscallError)?.errno
            #expect(errno == ENETUNREACH, "\(String(describing: error.underlying))")
        }
        try link.command("link up")
        try await client.shutdown()
    }

    @Test func aPeerSilentAfterTheHeadEndsAtTheRequestTimeout() async throws {
        let link = try ImpairedLink()
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n".utf8)
        let server = try link.onServerSide {
            try LoopbackServer(host: ImpairedLink.serverAddress) { _ in
                LoopbackResponse(actions: [.write(head), .write(LinkFixture.body(4096)), .stall])
            }
        }
        try link.set(.both, "delay_ms=20")
        var request = Request(url: URL(string: "http://\(ImpairedLink.serverAddress):\(server.port)/silent")!)
        request.options.timeout = .seconds(2)
        try await expectTimedOut(request, on: link, message: "", atLeast: .seconds(2))
        withExtendedLifetime(server) {}
    }

    @Test func aPathMTUBlackholeEndsAtTheRequestTimeout() async throws {
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": LinkFixture.body(4 << 20)])
        try link.set(.s2c, "delay_ms=10 max_packet=1200")
        var request = Request(url: URL(string: LinkFixture.url("/big.bin"))!)
        request.options.timeout = .seconds(3)
        try await expectTimedOut(request, on: link, message: "", atLeast: .seconds(3))
        withExtendedLifetime(nginx) {}
    }

    @Test func anUploadUnderLossAndReorderingIsStoredIntact() async throws {
        let body = LinkFixture.body(2 << 20, seed: 0x99)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: [:])
        let transport = try LinkFixture.clientSideTransport(link)
        let client = Client(transport: transport)
        try link.set(.both, "delay_ms=20 jitter_ms=5 loss=2 reorder=3 corrupt=1")
        var request = Request(url: URL(string: LinkFixture.url("/upload/library.bin"))!)
        request.method = .put
        request.body = .bytes(body)
        let response = try await LinkFixture.send(request, client, transport, namespace: link.namespaceID(.client))
        #expect((200..<300).contains(response.status.code), "\(response.status)")
        let stored = nginx.uploaded("library.bin")
        let intact = stored == body
        #expect(intact, "nginx stored \(stored?.count ?? 0) bytes, not the body")
        #expect(try link.stats(.c2s).dropped > 0)
        try await client.shutdown()
    }

    @Test func aHundredRequestsOverALossy100MillisecondLinkAllComplete() async throws {
        let link = try ImpairedLink()
        let body = Array("queued\n".utf8)
        let server = try link.onServerSide {
            try LoopbackServer(host: ImpairedLink.serverAddress) { _ in .ok(bytes: body) }
        }
        let transport = try LinkFixture.clientSideTransport(link)
        let client = Client(transport: transport)
        try link.set(.both, "delay_ms=50 loss=2")
        let namespace = link.namespaceID(.client)
        let base = "http://\(ImpairedLink.serverAddress):\(server.port)/item/"
        let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<100 {
                let request = Request(url: URL(string: base + "\(index)")!)
                group.addTask {
                    let response = try await LinkFixture.send(request, client, transport, namespace: namespace)
                    return response.status.code == 200 && response.body == body
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(answered == 100)
        #expect(try link.stats(.c2s).dropped + link.stats(.s2c).dropped > 0, "the link lost nothing")
        try await client.shutdown()
        withExtendedLifetime(server) {}
    }

    @Test func aKeepAliveConnectionWhoseCloseWasLostIsReplacedForAGetAndFailsTypedForAPost() async throws {
        // nginx closes an idle connection after 1 s, and the link loses the FIN (a middlebox that dropped the
        // close): the client still pools the connection. The next request on it meets a closed socket, and the
        // server's kernel answers with a reset before any response byte.
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["small.txt": Array("ok".utf8)], keepaliveTimeout: 1)
        let transport = try LinkFixture.clientSideTransport(link)
        let client = Client(transport: transport)
        try link.set(.s2c, "delay_ms=10 drop_fin=1")
        let namespace = link.namespaceID(.client)
        let url = URL(string: LinkFixture.url("/small.txt"))!

        let first = try await LinkFixture.send(Request(url: url), client, transport, namespace: namespace)
        #expect(try await link.waitFor(.s2c) { $0.dropped >= 1 }, "nginx's FIN never reached the link")
        // A GET is idempotent: sent again, once, on a new connection (RFC 9112 §9.3.1).
        let second = try await LinkFixture.send(Request(url: url), client, transport, namespace: namespace)
        #expect(second.status.code == 200 && second.body == Array("ok".utf8), "\(second.status)")
        #expect(second.info.connectionID != first.info.connectionID, "the GET was not moved to a new connection")

        // A POST is not sent again by itself: a typed error that says the connection was lost (a RetryPolicy with
        // `methods: nil`, curl's --retry, would send it again).
        let dropsBefore = try link.stats(.s2c).dropped
        #expect(try await link.waitFor(.s2c) { $0.dropped > dropsBefore }, "the second FIN never reached the link")
        var post = Request(url: url)
        post.method = .post
        post.body = .string("payload")
        do {
            let response = try await LinkFixture.send(post, client, transport, namespace: namespace)
            Issue.record("a POST on a connection the server had closed returned \(response.status)")
        } catch let error as ClientError {
            let lost: Set<ClientError.Code> = [.emptyResponse, .sendFailed, .receiveFailed]
            #expect(lost.contains(error.code) && error.stage == .transport, "\(error)")
        }
        try await client.shutdown()
        withExtendedLifetime(nginx) {}
    }

    @Test func aKeepAliveConnectionThatWentSilentEndsAtTheTimeoutAndARetryAnswersIt() async throws {
        // The server answers once on each connection and then reads and drops whatever comes, without a byte, a
        // close or a reset (a hung worker, or a lingering close whose FIN was lost). The library cannot tell this
        // from a slow server, so the request timeout ends a request sent on the pooled connection; a retry policy
        // then answers it on a new connection.
        let link = try ImpairedLink()
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
        let server = try link.onServerSide {
            try LoopbackServer(host: ImpairedLink.serverAddress) { _ in
                LoopbackResponse(actions: [.write(answer), .stall])
            }
        }
        try link.set(.both, "delay_ms=10")
        let base = "http://\(ImpairedLink.serverAddress):\(server.port)/"
        for retried in [false, true] {
            let transport = try LinkFixture.clientSideTransport(link)
            let client = Client(transport: transport)
            let namespace = link.namespaceID(.client)
            let first = try await LinkFixture.send(
                Request(url: URL(string: base + "1")!), client, transport, namespace: namespace)
            #expect(first.body == Array("ok".utf8))
            var request = Request(url: URL(string: base + "2")!)
            request.options.timeout = .seconds(2)
            if retried { request.options.retryPolicy = RetryPolicy(initialDelay: .milliseconds(100)) }
            let started = ContinuousClock.now
            do {
                let response = try await LinkFixture.send(request, client, transport, namespace: namespace)
                #expect(retried && response.status.code == 200 && response.info.retryCount == 1, "\(response.info)")
                #expect(response.info.connectionID != first.info.connectionID)
            } catch let error as ClientError {
                #expect(!retried && error.code == .timedOut, "\(error)")
            }
            #expect(ContinuousClock.now - started >= .seconds(2), "the silent connection answered early")
            try await client.shutdown()
        }
        withExtendedLifetime(server) {}
    }
}
