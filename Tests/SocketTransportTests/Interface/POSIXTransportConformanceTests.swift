import HTTPTesting
import SocketTransport
import TestSupport
import Testing

@Suite struct POSIXTransportConformanceTests {
    @Test func passesTheTransportConformanceSuite() async throws {
        try await TransportConformance.run { POSIXTransport() }
    }

    @Test func suiteCatchesATransportThatDropsBodies() async throws {
        await #expect(throws: ConformanceFailure.self) {
            try await TransportConformance.run { ScriptedTransport.ok }
        }
    }
}
