import FoundationEssentials
import HTTP2
import HTTPCore
import SocketTransport
import TestSupport
import Testing

/// An HTTP/2 connection that carries no stream for the transport's idle timeout is closed as an idle pooled HTTP/1.1
/// connection is (`GOAWAY`, then the close), never while a stream is open, and the next request opens a new one.
/// Against the scripted h2 server (which prints the client's `GOAWAY` and the end of the connection) and nginx (whose
/// connection the kernel's table shows closed).
@Suite("HTTP/2 idle connections")
struct HTTP2IdleConnectionTests {
    @Test(.enabled(if: H2FaultServer.shouldRun))
    func anIdleConnectionIsClosedWithGoAwayAfterTheRequestsPersistentConnectionTimeout() async throws {
        try await withPeer(start: { try H2FaultServer.start(.normal) }, stop: { $0.stop() }) { server in
            let transport = http2Transport(priorKnowledge: true)
            var request = testRequest(server.url("/ok"))
            request.options.persistentConnectionTimeout = .milliseconds(300)  // no transport idleTimeout: this one
            let (first, _) = try await fetch(transport, request)
            #expect(first.status == .ok && first.version == .http2)
            #expect(await eventually(within: 60) { !server.outputLines(startingWith: "ENDED 1").isEmpty })
            #expect(server.outputLines(startingWith: "GOAWAY 1") == ["GOAWAY 1 0"], "NO_ERROR, before the close")
            let (second, body) = try await fetch(transport, request)
            #expect(second.status == .ok && body == Array("ok".utf8))
            #expect(second.connectionID != first.connectionID)
            #expect(server.connections == 2)
            try await transport.shutdown()
        }
    }

    /// A stream waiting longer than the idle timeout keeps its connection: the `GOAWAY` comes only after the stream
    /// ended (here reset by the request's own timeout), never under it.
    @Test(.enabled(if: H2FaultServer.shouldRun))
    func aConnectionWithAnOpenStreamIsNotClosed() async throws {
        try await withPeer(start: { try H2FaultServer.start(.normal) }, stop: { $0.stop() }) { server in
            let transport = POSIXTransport(configuration: .init(
                idleTimeout: .milliseconds(200), protocols: [.http2(.init(speaksCleartextWithPriorKnowledge: true))]))
            var slow = testRequest(server.url("/slow"))  // never answered
            slow.options.timeout = .seconds(2)
            await #expect {
                _ = try await fetch(transport, slow)
            } throws: { ($0 as? ClientError)?.code == .timedOut }
            #expect(await eventually(within: 60) { !server.outputLines(startingWith: "GOAWAY 1").isEmpty })
            let events = server.outputLines(startingWith: "RESET 1") + server.outputLines(startingWith: "GOAWAY 1")
            let order = server.output.split(separator: "\n").map(String.init).filter { events.contains($0) }
            #expect(order == ["RESET 1 1", "GOAWAY 1 0"], "the stream ended before the connection was closed")
            try await transport.shutdown()
        }
    }

    @Test(.enabled(if: HTTP2NginxPeer.shouldRun))
    func nginxSeesTheIdleConnectionClosedAndTheNextRequestOnANewOne() async throws {
        try await withHTTP2Nginx { nginx in
            let transport = POSIXTransport(configuration: .init(
                idleTimeout: .milliseconds(300), protocols: [.http2()]))
            let url = nginx.url("/1k.bin")
            let (first, body) = try await fetch(transport, h2Request(url, certificates: nginx.certificates))
            #expect(first.version == .http2 && body.count == 1024)
            // nginx keeps an idle h2 connection for minutes: only the client's idle close ends it this soon.
            #expect(await eventually(within: 60) { nginx.establishedConnections(to: .tls) == 0 })
            let (second, _) = try await fetch(transport, h2Request(url, certificates: nginx.certificates))
            #expect(second.version == .http2 && second.connectionID != first.connectionID)
            _ = await eventually(within: 60) { nginx.connections(servingPath: "/1k.bin").count >= 2 }
            #expect(nginx.connections(servingPath: "/1k.bin").count == 2)
            try await transport.shutdown()
        }
    }
}
