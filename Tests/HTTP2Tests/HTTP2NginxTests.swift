import FoundationEssentials
import HTTP2
import HTTPCore
import HTTPPipeline
import SocketTransport
import TestSupport
import Testing

/// The HTTP2 plug-in against a real nginx (`listen … http2`) where the case needs nginx: its HTTP/1.1 beside h2,
/// the NTLM fallback, `HEAD` and `304`, and `GOAWAY` after `keepalive_requests 50`. The cases both h2 servers run
/// are in ``HTTP2ServerTests``.
@Suite("HTTP/2 against nginx", .enabled(if: HTTP2NginxPeer.shouldRun))
struct HTTP2NginxTests {
    @Test func withoutThePlugInTheSameServerAnswersHTTP1() async throws {
        try await withHTTP2Nginx { nginx in
            let transport = POSIXTransport()
            let request = h2Request(nginx.url("/1k.bin"), certificates: nginx.certificates)
            let (response, body) = try await fetch(transport, request)
            #expect(response.version == .http1_1)
            #expect(body == NginxPeer.oneKiB)
            try await transport.shutdown()
        }
    }

    /// NTLM's handshake names its connection (`preferredConnectionID`), and HTTP/2 cannot carry a connection-bound
    /// authentication: such a request goes over HTTP/1.1 on a connection that offered `http/1.1` alone, while the
    /// origin's other requests stay on HTTP/2.
    @Test func aConnectionBoundHandshakeFallsBackToHTTP1() async throws {
        try await withHTTP2Nginx { nginx in
            let transport = http2Transport()
            let request = h2Request(nginx.url("/1k.bin"), certificates: nginx.certificates)
            let (first, _) = try await fetch(transport, request)
            #expect(first.version == .http2)
            var bound = testContext()
            bound.preferredConnectionID = first.connectionID
            let (challenged, body) = try await fetch(transport, request, context: bound)
            #expect(challenged.version == .http1_1)
            #expect(body == NginxPeer.oneKiB)
            #expect(challenged.connectionID != first.connectionID)
            let (after, _) = try await fetch(transport, request)
            #expect(after.version == .http2)
            try await transport.shutdown()
        }
    }

    @Test func headAnd304HaveNoBody() async throws {
        try await withHTTP2Nginx { nginx in
            let transport = http2Transport()
            let head = h2Request(nginx.url("/1k.bin"), method: .head, certificates: nginx.certificates)
            let (response, body) = try await fetch(transport, head)
            #expect(response.version == .http2)
            #expect(response.headerFields[.contentLength] == "1024")
            #expect(body.isEmpty)
            var conditional = h2Request(nginx.url("/1k.bin"), certificates: nginx.certificates)
            conditional.headerFields[.ifModifiedSince] = response.headerFields[.lastModified]
            let (notModified, empty) = try await fetch(transport, conditional)
            #expect(notModified.status == .notModified)
            #expect(empty.isEmpty)
            try await transport.shutdown()
        }
    }

    @Test func goAwayAfterFiftyRequestsIsInvisibleToTwoHundred() async throws {
        try await withHTTP2Nginx { nginx in
            let transport = http2Transport()
            let results = try await parallelGETs(200, of: nginx.url("/1k.bin?goaway", on: .goaway),
                                                 through: transport, certificates: nginx.certificates, width: 40)
            #expect(results.count == 200)
            #expect(results.allSatisfy { $0.version == .http2 && $0.status == 200 && $0.body == NginxPeer.oneKiB })
            #expect(await eventually { nginx.accessLog.filter { $0.contains("goaway") }.count >= 200 })
            // 50 requests per connection: at least four connections carried the 200.
            #expect(nginx.connections(servingPath: "goaway").count >= 4)
            try await transport.shutdown()
        }
    }
}

/// The pipeline above the plug-in: a `RequestQueue` of width 16 through a `Client` uses one h2 connection.
@Suite("HTTP/2 through the pipeline", .enabled(if: HTTP2NginxPeer.shouldRun))
struct HTTP2PipelineTests {
    @Test func aQueueOfWidthSixteenUsesOneConnection() async throws {
        try await withHTTP2Nginx { nginx in
            let transport = http2Transport()
            let client = Client(transport: transport)
            let queue = RequestQueue(client: client, configuration: .init(maxConcurrentRequests: 16))
            let results = queue.results
            for _ in 0..<64 {
                queue.add(h2Request(nginx.url("/1k.bin?queue"), certificates: nginx.certificates))
            }
            queue.go()
            var versions: [HTTPVersion] = []
            for await result in results {
                let response = try result.response()
                #expect(response.status == .ok)
                #expect(response.body == NginxPeer.oneKiB)
                versions.append(response.head.version)
            }
            #expect(versions.count == 64)
            #expect(versions.allSatisfy { $0 == .http2 })
            #expect(await eventually { nginx.accessLog.filter { $0.contains("queue") }.count == 64 })
            #expect(nginx.connections(servingPath: "queue").count == 1)
            try await client.shutdown()
        }
    }
}
