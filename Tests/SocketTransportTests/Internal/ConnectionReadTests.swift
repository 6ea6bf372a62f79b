import HTTPCore
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

/// Reads after a short plain-TCP read wait for readiness before calling `recv` again (PROFILE.md fix 2); bytes
/// that come later, and a close that came with the last bytes, must still be seen.
@Suite struct ConnectionReadTests {
    @Test func bodySplitAcrossTwoWritesArrivesWhole() async throws {
        let body = (0..<3000).map { UInt8(truncatingIfNeeded: $0) }
        let server = try LoopbackServer { _ in .slowBody(body, firstPart: 100, pause: .milliseconds(30)) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        var connections: Set<UInt64?> = []
        for _ in 0..<3 {
            let (response, received) = try await fetch(transport, testRequest(server.url("/split")))
            #expect(received == body)
            connections.insert(response.connectionID)
        }
        #expect(connections.count == 1)
    }

    @Test func headSplitFromItsBodyArrivesWhole() async throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n".utf8)
        let server = try LoopbackServer { _ in
            LoopbackResponse(actions: [.write(Array(head[..<10])), .sleep(.milliseconds(20)), .write(Array(head[10...])),
                                       .sleep(.milliseconds(20)), .body(Array("hello".utf8))])
        }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        for _ in 0..<2 {
            let (response, received) = try await fetch(transport, testRequest(server.url("/head")))
            #expect(response.status == .ok)
            #expect(received == Array("hello".utf8))
        }
    }

    @Test func closeThatCameWithTheLastBytesEndsTheBody() async throws {
        let server = try LoopbackServer { _ in
            LoopbackResponse.raw("HTTP/1.1 200 OK\r\n\r\nhello", thenClose: true).delayed(by: .milliseconds(20))
        }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        for _ in 0..<5 {
            let (_, received) = try await fetch(transport, testRequest(server.url("/eof")))
            #expect(received == Array("hello".utf8))
        }
    }

    @Test func inactivityTimeoutStillAppliesAfterAShortRead() async throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello".utf8)
        let server = try LoopbackServer { _ in LoopbackResponse(actions: [.write(head), .stall]) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let response = try await transport.send(
            testRequest(server.url("/stall"), timeout: .milliseconds(200)), context: testContext())
        await expectClientError(.timedOut) { _ = try await response.body.collect(upTo: 1024) }
    }
}
