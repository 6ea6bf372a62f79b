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

/// Misbehaving servers, unreachable hosts, timeouts and cancellation.
@Suite struct POSIXTransportFaultTests {
    @Test func bodyShorterThanContentLengthFailsFromTheBody() async throws {
        let server = try LoopbackServer { _ in .truncated(body: Array(repeating: 1, count: 10), announcedLength: 100) }
        defer { server.shutdown() }
        let response = try await POSIXTransport().send(testRequest(server.url("/t")), context: testContext())
        #expect(response.status == .ok)
        let error = await expectClientError(.incompleteBody) { _ = try await response.body.collect(upTo: 1000) }
        #expect(error?.message.contains("10 of 100") == true)
    }

    @Test func malformedChunkIsAProtocolViolation() async throws {
        let server = try LoopbackServer { _ in
            .raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n")
        }
        defer { server.shutdown() }
        await expectClientError(.protocolViolation) {
            _ = try await fetch(POSIXTransport(), testRequest(server.url("/c")))
        }
    }

    @Test func hugeHeaderIsAProtocolViolation() async throws {
        let big = String(repeating: "a", count: 70_000)
        let server = try LoopbackServer { _ in .raw("HTTP/1.1 200 OK\r\nX-Big: \(big)\r\nContent-Length: 0\r\n\r\n") }
        defer { server.shutdown() }
        await expectClientError(.protocolViolation) {
            _ = try await fetch(POSIXTransport(), testRequest(server.url("/h")))
        }
    }

    @Test func resetWithoutResponseIsReceiveFailed() async throws {
        let server = try LoopbackServer { _ in .resetWithoutResponse }
        defer { server.shutdown() }
        let error = await expectClientError(.receiveFailed) {
            _ = try await fetch(POSIXTransport(), testRequest(server.url("/r")))
        }
        #expect((error?.underlying as? SyscallError)?.errno == ECONNRESET)
        #expect(error?.stage == .transport)
    }

    @Test func closeWithoutResponseOnANewConnectionIsEmptyResponse() async throws {
        let server = try LoopbackServer { _ in .closeWithoutResponse }
        defer { server.shutdown() }
        await expectClientError(.emptyResponse) {
            _ = try await fetch(POSIXTransport(), testRequest(server.url("/r")))
        }
        #expect(server.connectionCount == 1)
    }

    @Test func stalledServerTimesOut() async throws {
        let server = try LoopbackServer { _ in .stall }
        defer { server.shutdown() }
        let error = await expectClientError(.timedOut) {
            _ = try await fetch(POSIXTransport(), testRequest(server.url("/s"), timeout: .milliseconds(300)))
        }
        #expect(error?.message.contains("300 ms") == true)
        #expect(await eventually { server.openConnectionCount == 0 })
    }

    @Test func stalledBodyTimesOut() async throws {
        let payload = Array(repeating: UInt8(7), count: 10_000)
        // The server stalls for ten minutes after the first 100 bytes (shutdown ends the stall), so the request's
        // inactivity timeout of 5 s always fires; on a starved machine it may fire before the head is read, which
        // is the same typed error one stage earlier.
        let server = try LoopbackServer { _ in .slowBody(payload, firstPart: 100, pause: .seconds(600)) }
        defer { server.shutdown() }
        await expectClientError(.timedOut) {
            let response = try await POSIXTransport().send(
                testRequest(server.url("/s"), timeout: .seconds(5)), context: testContext())
            #expect(response.status.code == 200)
            _ = try await response.body.collect(upTo: 1 << 20)
        }
    }

    @Test func refusedConnectionIsConnectFailed() async throws {
        let refusing = RefusingPort()
        let url = URL(string: "http://127.0.0.1:\(refusing.port)/gone")!
        let error = await expectClientError(.connectFailed) { _ = try await fetch(POSIXTransport(), testRequest(url)) }
        withExtendedLifetime(refusing) {}
        #expect((error?.underlying as? SyscallError)?.errno == ECONNREFUSED)
    }

    @Test func unknownHostIsNameResolutionFailed() async throws {
        await expectClientError(.nameResolutionFailed) {
            _ = try await fetch(POSIXTransport(), testRequest(URL(string: "http://nonexistent.invalid/")!))
        }
    }

    @Test func unsupportedSchemeIsInvalidRequest() async throws {
        await expectClientError(.invalidRequest) {
            _ = try await fetch(POSIXTransport(), testRequest(URL(string: "ftp://127.0.0.1/")!))
        }
    }

    @Test func cancellationWhileWaitingForTheHeadClosesTheConnection() async throws {
        let server = try LoopbackServer { _ in .stall }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let task = Task { try await fetch(transport, testRequest(server.url("/s"))) }
        #expect(await eventually { server.requests.count == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(await eventually { server.openConnectionCount == 0 })
        #expect(transport.core.pool.openCount(PoolKey(scheme: "http", host: "127.0.0.1", port: server.port)) == 0)
    }

    @Test func cancellationMidDownloadClosesTheConnection() async throws {
        // The server notices the close when it writes again after the pause.
        let payload = Array(repeating: UInt8(1), count: 100_000)
        let server = try LoopbackServer { _ in .slowBody(payload, firstPart: 1000, pause: .seconds(5)) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let response = try await transport.send(testRequest(server.url("/d")), context: testContext())
        // The reading task cancels itself after the first chunk, so the cancellation lands mid-body however slowly
        // a loaded machine schedules the test (an outside cancel could come after the pause and the rest).
        let task = Task {
            var total = 0
            for try await chunk in response.body {
                total += chunk.count
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return total
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(await eventually { server.openConnectionCount == 0 })
    }

    @Test func discardingASmallRemainderKeepsTheConnection() async throws {
        let payload = Array(repeating: UInt8(1), count: 20_000)
        let server = try LoopbackServer { _ in .slowBody(payload, firstPart: 100, pause: .milliseconds(20)) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let first = try await transport.send(testRequest(server.url("/a")), context: testContext())
        await first.body.discard()
        #expect(try await first.body.collect(upTo: 10).isEmpty)
        let (second, _) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(second.connectionID == first.connectionID)
    }

    @Test func discardingALargeRemainderClosesTheConnection() async throws {
        let payload = Array(repeating: UInt8(1), count: 1_000_000)
        let server = try LoopbackServer { _ in .slowBody(payload, firstPart: 100, pause: .milliseconds(300)) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let first = try await transport.send(testRequest(server.url("/a")), context: testContext())
        await first.body.discard()
        #expect(await eventually { server.openConnectionCount == 0 })
        let (second, _) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(second.connectionID != first.connectionID)
    }

    @Test func droppedBodyFreesItsConnection() async throws {
        let payload = Array(repeating: UInt8(1), count: 100_000)
        let server = try LoopbackServer { _ in .slowBody(payload, firstPart: 100, pause: .milliseconds(300)) }
        defer { server.shutdown() }
        let transport = POSIXTransport(configuration: .init(maxConnectionsPerHost: 1))
        let first = try await transport.send(testRequest(server.url("/a")), context: testContext()).connectionID
        #expect(transport.core.pool.openCount(PoolKey(scheme: "http", host: "127.0.0.1", port: server.port)) == 0)
        #expect(await eventually { server.openConnectionCount == 0 })
        // With one connection allowed, this only gets through because the dropped body gave the slot back.
        let (second, body) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(body == payload)
        #expect(second.connectionID != first)
    }
}
