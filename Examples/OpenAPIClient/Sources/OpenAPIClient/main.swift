import EchoAPI  // generated from openapi.yaml
import FoundationEssentials
import Glibc
import InMemoryTracing
import Metrics
import MetricsTestKit
import Tracing

// A tracer and a metrics backend, bootstrapped once per process in main (an app would use swift-otel or
// swift-prometheus here; these keep what they record in memory so the example can print it).
let tracer = InMemoryTracer()
let metrics = TestMetrics()
InstrumentationSystem.bootstrap(tracer)
MetricsSystem.bootstrap(metrics)

// The composition root (Composition.swift): a client with the middleware, and the OpenAPI transport on it.
let (client, transport) = makeComposition()

// The server: a URL argument (httpbin: `swift run OpenAPIClient http://127.0.0.1:8080`), or a loopback echo.
let echoServer = CommandLine.arguments.count > 1 ? nil : try EchoServer.start()
let serverURL = try echoServer?.baseURL ?? URL(string: CommandLine.arguments[1]) ?? Servers.Server1.url()
let api = Client(serverURL: serverURL, transport: transport)  // the generated client

let output = try await api.echo(path: .init(name: "world"), body: .json(.init(message: "hello")))
let echo = try output.ok.body.json
print("\(echo.method) \(echo.url) -> \(echo.json?.message ?? "no JSON")")
let traceHeader = echo.headers?.additionalProperties.first { $0.key.lowercased() == InMemoryTracer.traceIDKey }?.value
print("the server saw \(InMemoryTracer.traceIDKey): \(traceHeader ?? "nothing")")
for span in tracer.finishedSpans {
    var attributes: [String] = []
    span.attributes.forEach { key, value in attributes.append("\(key)=\(value)") }
    print("span \(span.operationName) (\(span.kind)): \(attributes.sorted().joined(separator: " "))")
}
for timer in metrics.timers(label: "http.client.request.duration") {
    let dimensions = timer.dimensions.map { "\($0)=\($1)" }.joined(separator: " ")
    print("timer \(timer.label) [\(dimensions)]: \(timer.values.count) value(s)")
}
try await client.shutdown()
echoServer?.shutdown()
guard traceHeader != nil, !metrics.timers(label: "http.client.request.duration").isEmpty else {
    print("FAIL: the trace header or the duration is missing")
    exit(1)
}
