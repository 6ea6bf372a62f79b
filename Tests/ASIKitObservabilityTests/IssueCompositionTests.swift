import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import OpenAPIASIKit
import OpenAPIRuntime
import SocketTransport
import TestSupport
import Testing
import Tracing

import ASIKitObservability

/// Issue 20's "done when": the composition, unchanged, with a `TestMetrics` backend and an instrument bootstrapped
/// for the process, against httpbin.
@Suite("issue 20 composition", .enabled(if: HttpbinPeer.shouldRun))
struct IssueCompositionTests {
    @Test func oneSendToHttpbinIsEchoedTracedAndTimed() async throws {
        #expect(GlobalBackends.bootstrapped)
        try await withHttpbin { httpbin in
            let client = Client(transport: POSIXTransport(), middleware: [ObservabilityMiddleware()])
            let transport = ASIKitTransport(client: client)

            let path = "/anything/composition-\(UInt64.random(in: 1...UInt64.max))"
            var fields = HTTPFields()
            fields[.contentType] = "application/json"
            let (response, body) = try await transport.send(
                HTTPRequest(method: .post, scheme: nil, authority: nil, path: path, headerFields: fields),
                body: HTTPBody(#"{"message": "hello"}"#), baseURL: httpbin.url(""), operationID: "echo")
            #expect(response.status == .ok)
            let echo = try await String(collecting: try #require(body), upTo: 1 << 20)
            #expect(echo.contains(#""message": "hello""#))
            #expect(echo.contains("\"url\": \"\(httpbin.url(path).absoluteString)\""))

            let span = try #require(GlobalBackends.tracer.finishedSpans.first {
                $0.attribute("url.full") == httpbin.url(path).absoluteString
            })
            // httpbin echoes header names capitalised: In-Memory-Trace-Id.
            #expect(echo.contains("\"In-Memory-Trace-Id\": \"\(span.traceID)\""))
            #expect(echo.contains("\"In-Memory-Span-Id\": \"\(span.spanID)\""))
            let timer = try GlobalBackends.metrics.expectTimer("http.client.request.duration", [
                ("http.request.method", "POST"), ("http.response.status_code", "200"),
                ("server.address", "127.0.0.1"), ("server.port", String(httpbin.port)),
            ])
            #expect(timer.values.count >= 1)
            try await client.shutdown()
        }
    }
}
