import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Happy Eyeballs v2's address order and the race against loopback servers (the blackholed address is in
/// `ASICommandHappyEyeballsTests`, which needs a network namespace).
@Suite struct HappyEyeballsTests {
    static func addresses(_ literals: [String]) -> [SocketAddress] {
        literals.map { SocketAddress(literal: $0, port: 80)! }
    }

    @Test func familiesAlternateIPv6FirstEachInTheResolversOrder() {
        let resolved = Self.addresses(["192.0.2.1", "192.0.2.2", "2001:db8::1", "192.0.2.3", "2001:db8::2"])
        let ordered = Connector.interleaved(resolved).map(\.description)
        #expect(ordered == Self.addresses(["2001:db8::1", "192.0.2.1", "2001:db8::2", "192.0.2.2", "192.0.2.3"])
            .map(\.description))
        #expect(Connector.interleaved(Self.addresses(["192.0.2.9"])).map(\.description) == ["192.0.2.9:80"])
    }

    @Test(arguments: [Duration.zero, .milliseconds(250), .seconds(3600)])
    func aRefusedAddressHandsOverAtOnceWhateverTheDelay(delay: Duration) async throws {
        // localhost is ::1 and 127.0.0.1 here; only 127.0.0.1 listens, so ::1 (tried first when the machine has it)
        // refuses and the next attempt starts without waiting for the delay.
        let server = try LoopbackServer { _ in .ok("v4") }
        defer { server.shutdown() }
        var configuration = POSIXTransport.Configuration()
        configuration.happyEyeballsDelay = delay
        let client = Client(transport: .posix(configuration))
        var request = Request(url: URL(string: "http://localhost:\(server.port)/")!)
        request.options.timeout = .seconds(30)
        let response = try await client.send(request)
        #expect(response.text() == "v4")
        try await client.shutdown()
    }

    @Test func everyAddressRefusedIsConnectFailedWithTheErrno() async throws {
        let refusing = RefusingPort()
        let client = Client(transport: .posix())
        let error = await #expect(throws: ClientError.self) {
            try await client.send(Request(url: URL(string: "http://127.0.0.1:\(refusing.port)/")!))
        }
        #expect(error?.code == .connectFailed)
        #expect((error?.underlying as? SyscallError)?.errno == ECONNREFUSED)
        try await client.shutdown()
    }
}
