import FoundationEssentials
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

/// A connection that carried a connection-bound authentication (NTLM, ``RequestContext/preferredConnectionID``)
/// is never reused by another request: it is authenticated as that request's user.
@Suite struct POSIXTransportBoundConnectionTests {
    static func boundContext(_ id: UInt64) -> RequestContext {
        var context = testContext()
        context.preferredConnectionID = id
        return context
    }

    @Test func aBoundConnectionIsReusedOnlyByTheRequestThatAsksForIt() async throws {
        let server = try LoopbackServer { _ in .ok("hi") }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        // The handshake asks for a connection that is gone, gets a new one and binds it.
        let (handshake, _) = try await fetch(transport, testRequest(server.url("/a")), context: Self.boundContext(.max))
        let bound = try #require(handshake.connectionID)

        // Another request (another user, or none) must not ride on the authenticated connection.
        let (other, _) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(other.connectionID != bound)

        // The handshake's next hop still finds it.
        let (next, _) = try await fetch(transport, testRequest(server.url("/c")), context: Self.boundContext(bound))
        #expect(next.connectionID == bound)
        #expect(server.connectionCount == 2)
    }

    @Test func aBoundConnectionMakesRoomAtTheLimitInsteadOfBlocking() async throws {
        let server = try LoopbackServer { _ in .ok("hi") }
        defer { server.shutdown() }
        let transport = POSIXTransport(configuration: POSIXTransport.Configuration(maxConnectionsPerHost: 1))
        let (handshake, _) = try await fetch(transport, testRequest(server.url("/a")), context: Self.boundContext(.max))
        let (other, body) = try await fetch(transport, testRequest(server.url("/b")))
        #expect(body == Array("hi".utf8))
        #expect(other.connectionID != handshake.connectionID)
    }
}
