import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import InMemoryTracing
import Metrics
import MetricsTestKit
import SocketTransport
import TestSupport
import Testing
import Tracing

@testable import ASIKitObservability

/// Spans, context propagation and metrics per attempt, over real sockets against the loopback server.
@Suite("ObservabilityMiddleware")
struct ObservabilityMiddlewareTests {
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/old": .redirect(302, to: "/new")
            case "/missing": .status(404)
            case "/partial":
                LoopbackResponse(actions: [
                    .write(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n".utf8)), .body([1, 2]), .stall,
                ])
            default: .ok("traced")
            }
        }
    }

    @Test func everyAttemptHasItsOwnClientSpanAndPropagatedContext() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let observed = Observed()
        let response = try await observed.run { try await observed.client.send(Request(url: server.url("/old"))) }
        #expect(response.text() == "traced")

        let spans = observed.tracer.finishedSpans
        try #require(spans.count == 2)
        #expect(spans.allSatisfy { $0.kind == .client && $0.operationName == "GET" })
        #expect(spans.map { $0.attribute("http.response.status_code") } == ["302", "200"])
        #expect(spans.map { $0.attribute("http.request.resend_count") } == [nil, "1"])
        let urls = [server.url("/old"), server.url("/new")].map(\.absoluteString)
        #expect(spans.map { $0.attribute("url.full") } == urls)
        #expect(spans.allSatisfy { $0.attribute("http.request.method") == "GET" })
        #expect(spans.allSatisfy { $0.attribute("server.address") == "127.0.0.1" })
        #expect(spans.allSatisfy { $0.attribute("server.port") == String(server.port) })
        #expect(spans.allSatisfy { $0.attribute("error.type") == nil && $0.status == nil })
        // Each attempt carried its own span's context to the server.
        let sent = server.requests.map { $0.header(InMemoryTracer.spanIDKey) }
        #expect(sent == spans.map { Optional($0.spanID) })
        #expect(server.requests.map { $0.header(InMemoryTracer.traceIDKey) } == spans.map { Optional($0.traceID) })

        #expect(observed.durations.count == 2)
        #expect(observed.durations.contains([
            "http.request.method=GET", "http.response.status_code=302", "server.address=127.0.0.1",
            "server.port=\(server.port)",
        ]))
        #expect(observed.metrics.timers(label: "http.client.request.duration").allSatisfy { $0.values.count == 1 })
        #expect(observed.active == 0)
        try await observed.client.shutdown()
    }

    @Test func theURLAttributeCarriesNoCredentials() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let observed = Observed()
        let url = URL(string: "http://alice:s3cret@127.0.0.1:\(server.port)/private?x=1")!
        _ = try await observed.run { try await observed.client.send(Request(url: url)) }
        let span = try #require(observed.tracer.finishedSpans.first)
        #expect(span.attribute("url.full") == "http://127.0.0.1:\(server.port)/private?x=1")
        try await observed.client.shutdown()
    }

    @Test func anErrorStatusIsTheErrorType() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let observed = Observed()
        let response = try await observed.run { try await observed.client.send(Request(url: server.url("/missing"))) }
        #expect(response.status == .notFound)
        let span = try #require(observed.tracer.finishedSpans.first)
        #expect(span.attribute("error.type") == "404")
        #expect(span.status?.code == .error)
        #expect(observed.durations.first?.contains("error.type=404") == true)
        try await observed.client.shutdown()
    }

    @Test func aFailedAttemptRecordsItsErrorCode() async throws {
        let refusing = RefusingPort()
        let observed = Observed()
        await #expect(throws: ClientError.self) {
            try await observed.run {
                try await observed.client.send(Request(url: URL(string: "http://127.0.0.1:\(refusing.port)/")!))
            }
        }
        let span = try #require(observed.tracer.finishedSpans.first)
        #expect(span.attribute("error.type") == "connectFailed")
        #expect(span.status?.code == .error)
        #expect(span.errors.count == 1)
        #expect(span.attribute("http.response.status_code") == nil)
        #expect(observed.durations == [[
            "http.request.method=GET", "server.address=127.0.0.1", "server.port=\(refusing.port)",
            "error.type=connectFailed",
        ]])
        #expect(observed.active == 0)
        try await observed.client.shutdown()
    }

    /// The span, timer and in-flight count last until the body has been read or given up.
    @Test func anAttemptLastsUntilItsBodyIsDone() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let observed = Observed()
        let response = try await observed.run { try await observed.client.stream(Request(url: server.url("/partial"))) }
        #expect(response.status == .ok)
        #expect(observed.active == 1)
        #expect(observed.tracer.finishedSpans.isEmpty)
        #expect(observed.durations.isEmpty)
        await response.body.discard()
        #expect(observed.active == 0)
        #expect(observed.tracer.finishedSpans.count == 1)
        #expect(observed.durations.count == 1)
        try await observed.client.shutdown()
    }

    /// With the no-op tracer, instrument and metrics factory in force, the middleware steps aside: no header is
    /// added and nothing is made.
    @Test func withoutABackendNothingIsRecordedOrSent() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let client = Client(transport: POSIXTransport(), middleware: [ObservabilityMiddleware()])
        try await withTracer(NoOpTracer()) {
            try await withMetricsFactory(NOOPMetricsHandler.instance) {
                #expect(Backends.current() == nil)
                _ = try await client.send(Request(url: server.url("/plain")))
            }
        }
        let request = try #require(server.requests.first)
        #expect(request.header(InMemoryTracer.traceIDKey) == nil)
        #expect(request.header("traceparent") == nil)
        // A tracer alone (no metrics backend) is enough to trace.
        try withTracer(InMemoryTracer()) {
            try withMetricsFactory(NOOPMetricsHandler.instance) {
                let backends = try #require(Backends.current())
                #expect(backends.traces && backends.metrics == nil)
            }
        }
        try await client.shutdown()
    }
}

/// Every public type of ASIKitObservability crosses into a detached task.
@Suite("ASIKitObservability sendability")
struct ASIKitObservabilitySendableTests {
    @Test func publicTypesAreSendable() async {
        let middleware = ObservabilityMiddleware(configuration: .init(durationLabel: "d"))
        let configuration = ObservabilityMiddleware.Configuration()
        let labels = await Task.detached { (middleware.configuration.durationLabel, configuration.durationLabel) }.value
        #expect(labels == ("d", "http.client.request.duration"))
    }
}
