import FoundationEssentials
import HTTPCore
import HTTPPipeline
import SocketTransport
import Testing
import TestSupport

/// The library in the test process over the impaired link: a `POSIXTransport` whose event-loop threads were
/// started on a thread that joined the client namespace, with every request run on those threads
/// (`withTaskExecutorPreference`), so its sockets are made there. Before each request the test checks, on the
/// thread that runs it, that it is in the client namespace; otherwise it sends nothing (10.33.0.1 could be routed
/// off the machine from the host's namespace).
@Suite("Impaired link: the library in process", .serialized, .enabled(if: LinkFixture.canRun, LinkFixture.skipReason))
struct ImpairedLibraryTests {
    @Test func aDownloadUnderLossAndCorruptionArrivesIntact() async throws {
        let body = LinkFixture.body(2 << 20)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        let transport = try LinkFixture.clientSideTransport(link)
        let client = Client(transport: transport)
        try link.set(.both, "delay_ms=10 loss=2 corrupt=1 reorder=3")
        let request = Request(url: URL(string: LinkFixture.url("/big.bin"))!)
        let received = try await LinkFixture.send(request, client, transport, namespace: link.namespaceID(.client)).body
        let intact = received == body
        #expect(intact, "received \(received.count) bytes, not the body")
        #expect(try link.stats(.s2c).dropped > 0 && link.stats(.s2c).corrupted > 0)
        try await client.shutdown()
        withExtendedLifetime(nginx) {}
    }

    @Test func aTLSDownloadUnderLossWithAnMTUDropArrivesIntact() async throws {
        // HTTPS to `localhost` (the certificate's name) at the link's server address, as asi's --resolve does; 2 %
        // loss and 3 % reordering throughout, and the MTU falls to 576 after 256 KiB of the response.
        let body = LinkFixture.body(2 << 20)
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": body])
        var configuration = POSIXTransport.Configuration()
        configuration.addressOverrides = ["localhost:443": ImpairedLink.serverAddress]
        let transport = try LinkFixture.clientSideTransport(link, configuration: configuration)
        let client = Client(transport: transport)
        try link.set(.both, "delay_ms=10 loss=2 reorder=3 rate=2000000")
        var request = Request(url: URL(string: LinkFixture.tlsURL("/big.bin"))!)
        request.options.tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
        let namespace = link.namespaceID(.client)
        let finalRequest = request
        async let response = LinkFixture.send(finalRequest, client, transport, namespace: namespace)
        let dropped = try await link.when(.s2c, hasForwarded: 256 << 10, run: [("mtu 576", .zero)])
        let received = try await response.body
        #expect(dropped, "the transfer never reached 256 KiB")
        let intact = received == body
        #expect(intact, "received \(received.count) bytes, not the body")
        #expect(try link.stats(.s2c).dropped > 0)
        try await client.shutdown()
    }

    @Test func aTrickleEndsAtTheLowSpeedLimitWithATypedError() async throws {
        let link = try ImpairedLink()
        let nginx = try LinkNginx(on: link, files: ["big.bin": LinkFixture.body(1 << 20)])
        let transport = try LinkFixture.clientSideTransport(link)
        let client = Client(transport: transport)
        try link.set(.s2c, "delay_ms=10 rate=3000 queue=6000")
        var request = Request(url: URL(string: LinkFixture.url("/big.bin"))!)
        request.options.timeout = .seconds(30)
        request.options.lowSpeedLimit = LowSpeedLimit(bytesPerSecond: 20_000, duration: .seconds(1))
        let started = ContinuousClock.now
        do {
            _ = try await LinkFixture.send(request, client, transport, namespace: link.namespaceID(.client))
            Issue.record("a 3 kB/s trickle passed a 20 kB/s low-speed limit")
        } catch let error as ClientError {
            #expect(error.code == .timedOut && error.message.contains("slower than 20000 bytes per second"), "\(error)")
        }
        let elapsed = ContinuousClock.now - started
        // The message says which limit ended it; the time is only checked not to be early. (An upper bound here
        // would time the cooperative pool, which a whole-suite run on two cores stalls for a minute and more.)
        #expect(elapsed >= .seconds(1), "gave up after \(elapsed)")
        try await client.shutdown()
        withExtendedLifetime(nginx) {}
    }
}
