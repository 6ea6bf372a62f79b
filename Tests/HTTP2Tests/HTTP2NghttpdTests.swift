import FoundationEssentials
import HTTP2
import HTTPCore
import SocketTransport
import TestSupport
import Testing

/// The HTTP2 plug-in against a second real h2 server, nghttpd (nghttp2's own server): ALPN, prior knowledge,
/// multiplexing, and large bodies both ways (uploads echoed back with `--echo-upload`).
@Suite("HTTP/2 against nghttpd", .enabled(if: NghttpdPeer.shouldRun))
struct HTTP2NghttpdTests {
    @Test func negotiatesH2ByALPN() async throws {
        try await withNghttpd(usesTLS: true) { server in
            let transport = http2Transport()
            let request = h2Request(server.url("/1k.bin"), certificates: server.certificates)
            let (response, body) = try await fetch(transport, request)
            #expect(response.version == .http2)
            #expect(response.status == .ok)
            #expect(body == NginxPeer.oneKiB)
            try await transport.shutdown()
        }
    }

    @Test func speaksCleartextH2WithPriorKnowledge() async throws {
        try await withNghttpd(usesTLS: false) { server in
            let transport = http2Transport(priorKnowledge: true)
            let request = h2Request(server.url("/1k.bin"), certificates: server.certificates)
            let (response, body) = try await fetch(transport, request)
            #expect(response.version == .http2)
            #expect(body == NginxPeer.oneKiB)
            try await transport.shutdown()
        }
    }

    @Test func hundredParallelGETsShareOneConnection() async throws {
        try await withNghttpd(usesTLS: true) { server in
            let transport = http2Transport()
            let results = try await parallelGETs(100, of: server.url("/1k.bin"), through: transport,
                                                 certificates: server.certificates)
            #expect(results.count == 100)
            #expect(results.allSatisfy { $0.version == .http2 && $0.status == 200 && $0.body == NginxPeer.oneKiB })
            #expect(Set(results.map(\.connection)).count == 1)
            try await transport.shutdown()
        }
    }

    @Test func hundredMiBDownloadArrivesIntact() async throws {
        try await withNghttpd(usesTLS: true) { server in
            let transport = http2Transport()
            let response = try await transport.send(
                h2Request(server.url("/big.bin"), certificates: server.certificates), context: testContext())
            #expect(response.version == .http2)
            let (count, intact) = try await readBig(response)
            #expect(count == HTTP2NginxPeer.bigSize)
            #expect(intact)
            try await transport.shutdown()
        }
    }

    @Test func twentyMiBUploadArrivesIntact() async throws {
        try await withNghttpd(usesTLS: true) { server in
            let transport = http2Transport()
            let request = h2Request(server.url("/echo"), method: .post, body: twentyMiBBody(),
                                    certificates: server.certificates)
            let response = try await transport.send(request, context: testContext())
            #expect(response.version == .http2)
            #expect(response.status == .ok)
            var count = 0
            var intact = true
            for try await chunk in response.body {
                if intact && !matchesTwentyMiB(chunk, at: count) { intact = false }
                count += chunk.count
            }
            #expect(count == twentyMiBCount)
            #expect(intact, "the echoed body differs from the one sent")
            try await transport.shutdown()
        }
    }
}
