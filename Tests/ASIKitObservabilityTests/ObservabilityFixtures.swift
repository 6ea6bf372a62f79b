import ASIKitObservability
import HTTPCore
import HTTPPipeline
import InMemoryTracing
import Metrics
import MetricsTestKit
import SocketTransport
import Tracing

/// A tracer and a metrics backend for one test, bound to its task (swift-distributed-tracing's `withTracer`,
/// swift-metrics' `withMetricsFactory`), so tests running in parallel never see each other's spans and metrics
/// and never touch the process-wide bootstrap.
struct Observed {
    let tracer = InMemoryTracer()
    let metrics = TestMetrics()
    let client = Client(transport: POSIXTransport(), middleware: [ObservabilityMiddleware()])

    func run<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await withTracer(tracer) {
            try await withMetricsFactory(metrics) { try await body() }
        }
    }

    /// The duration timers, as "dimension=value" lists.
    var durations: [[String]] {
        metrics.timers(label: "http.client.request.duration").map { $0.dimensions.map { "\($0.0)=\($0.1)" } }
    }

    /// The in-flight meter's last value for every set of dimensions, added up.
    var active: Double {
        metrics.meters(label: "http.client.active_requests").compactMap(\.lastValue).reduce(0, +)
    }
}

extension FinishedInMemorySpan {
    /// An attribute as text, or `nil`.
    func attribute(_ name: String) -> String? {
        attributes.get(name).map { value in
            switch value {
            case .string(let text): text
            case .int64(let number): String(number)
            default: "\(value)"
            }
        }
    }
}

/// The process-wide tracer and metrics backend, bootstrapped once for the whole test process (bootstrapping is
/// once-only); only the test of the composition uses them, and it finds its own records by a unique path.
enum GlobalBackends {
    static let tracer = InMemoryTracer()
    static let metrics = TestMetrics()
    static let bootstrapped: Bool = {
        InstrumentationSystem.bootstrap(tracer)
        MetricsSystem.bootstrap(metrics)
        return true
    }()
}
