import FoundationEssentials
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import Testing

@Suite struct POSIXTransportSmokeTests {
    @Test func getReturnsBody() async throws {
        let server = try LoopbackServer { _ in .ok("hello") }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (response, body) = try await fetch(transport, testRequest(server.url("/a")))
        #expect(response.status == .ok)
        #expect(body == Array("hello".utf8))
        let (again, _) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(again.connectionID == response.connectionID)
        #expect(server.connectionCount == 1)
        try await transport.shutdown()
    }
}
