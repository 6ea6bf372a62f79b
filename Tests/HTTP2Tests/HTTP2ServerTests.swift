import FoundationEssentials
import HTTP2
import HTTPCore
import SocketTransport
import TestSupport
import Testing

/// The HTTP2 plug-in against two real h2 servers, nginx and nghttpd, one case each: ALPN, prior knowledge,
/// multiplexing (counted on nginx's side too), and large bodies both ways.
@Suite("HTTP/2 against nginx and nghttpd")
struct HTTP2ServerTests {
    @Test(arguments: H2Server.available)
    func negotiatesH2ByALPN(_ server: H2Server) async throws {
        try await server.run { origin in
            let transport = http2Transport()
            let request = h2Request(origin.url("/1k.bin"), certificates: origin.certificates)
            let (response, body) = try await fetch(transport, request)
            #expect(response.version == .http2)
            #expect(response.status == .ok)
            #expect(body == NginxPeer.oneKiB)
            #expect(response.body.expectedLength == 1024)
            try await transport.shutdown()
        }
    }

    @Test(arguments: H2Server.available)
    func speaksCleartextH2WithPriorKnowledge(_ server: H2Server) async throws {
        try await server.run(cleartext: true) { origin in
            let transport = http2Transport(priorKnowledge: true)
            let (response, body) = try await fetch(
                transport, h2Request(origin.url("/1k.bin"), certificates: origin.certificates))
            #expect(response.version == .http2)
            #expect(body == NginxPeer.oneKiB)
            try await transport.shutdown()
        }
    }

    @Test(arguments: H2Server.available)
    func hundredParallelGETsShareOneConnection(_ server: H2Server) async throws {
        try await server.run { origin in
            let transport = http2Transport()
            let results = try await parallelGETs(100, of: origin.url("/1k.bin?parallel"), through: transport,
                                                 certificates: origin.certificates)
            #expect(results.count == 100)
            #expect(results.allSatisfy { $0.version == .http2 && $0.status == 200 && $0.body == NginxPeer.oneKiB })
            #expect(Set(results.map(\.connection)).count == 1)
            if let logged = await origin.logged("parallel", 100) {
                #expect(logged.requests == 100)
                #expect(logged.connections.count == 1, "the server saw \(logged.connections.count) connections")
            }
            try await transport.shutdown()
        }
    }

    @Test(arguments: H2Server.available)
    func hundredMiBDownloadArrivesIntact(_ server: H2Server) async throws {
        try await server.run { origin in
            let transport = http2Transport()
            let response = try await transport.send(
                h2Request(origin.url("/big.bin"), certificates: origin.certificates), context: testContext())
            #expect(response.version == .http2)
            let (count, intact) = try await readBig(response)
            #expect(count == HTTP2NginxPeer.bigSize)
            #expect(intact)
            try await transport.shutdown()
        }
    }

    @Test(arguments: H2Server.available)
    func twentyMiBUploadArrivesIntact(_ server: H2Server) async throws {
        try await server.run { origin in
            let transport = http2Transport()
            let request = h2Request(origin.url(origin.upload.path), method: origin.upload.method,
                                    body: twentyMiBBody(), certificates: origin.certificates)
            let response = try await transport.send(request, context: testContext())
            #expect(response.version == .http2)
            #expect(response.status == origin.upload.status)
            let stored = try #require(try await origin.readUpload(response))
            #expect(stored.count == twentyMiBCount)
            #expect(stored.intact, "the server received other bytes than those sent")
            try await transport.shutdown()
        }
    }
}
