public import HTTPCore
import Metrics
import Tracing

/// Traces and measures every attempt a client makes, with swift-distributed-tracing and swift-metrics.
///
/// For each attempt (the first request, every redirect hop, every challenge answer and every retry: the
/// middleware runs once per attempt, see ``HTTPCore/Middleware``) it
/// - starts a client span named after the method, with OpenTelemetry's HTTP client attributes:
///   `http.request.method`, `url.full` (without `user:password`), `server.address`, `server.port`,
///   `http.request.resend_count` (from the second attempt on), `http.response.status_code`, and `error.type` (the
///   status code from 400 on, or the ``HTTPCore/ClientError/Code`` of a failure); the span ends, and its status is
///   set, when the response body has been read or given up;
/// - injects the bootstrapped instrument's context (the span's) into the request's header fields, for example
///   W3C `traceparent`;
/// - records `http.client.request.duration` (a `Timer`, with `http.request.method`, `http.response.status_code`,
///   `server.address`, `server.port`, and `error.type` when it failed) and keeps `http.client.active_requests` (a
///   `Meter`, with method, server and `url.scheme`) counting the attempts in flight.
///
/// ```swift
/// InstrumentationSystem.bootstrap(myTracer)      // once per process, in main
/// MetricsSystem.bootstrap(myMetricsFactory)
/// let client = Client(transport: POSIXTransport(), middleware: [ObservabilityMiddleware()])
/// ```
///
/// The tracer, instrument and metrics factory are the ones bootstrapped for the process, or bound to the task
/// with swift-distributed-tracing's `withTracer` and swift-metrics' `withMetricsFactory`. When none is (the no-op
/// defaults), the middleware does nothing but pass the request on: no span, header, timer or meter is made.
public struct ObservabilityMiddleware: Middleware {
    /// Metric labels.
    public struct Configuration: Sendable {
        /// The label of the request duration timer.
        public var durationLabel: String
        /// The label of the meter counting attempts in flight.
        public var activeRequestsLabel: String

        /// Creates a configuration.
        /// - Parameters:
        ///   - durationLabel: The duration timer's label; OpenTelemetry's `http.client.request.duration`.
        ///   - activeRequestsLabel: The in-flight meter's label; OpenTelemetry's `http.client.active_requests`.
        public init(
            durationLabel: String = "http.client.request.duration",
            activeRequestsLabel: String = "http.client.active_requests"
        ) {
            self.durationLabel = durationLabel
            self.activeRequestsLabel = activeRequestsLabel
        }
    }

    /// The metric labels.
    public let configuration: Configuration

    /// Creates the middleware.
    /// - Parameter configuration: The metric labels.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Observes one attempt: starts its span and meters, injects the context, and sends the request on.
    /// - Parameters:
    ///   - request: The request about to be sent.
    ///   - context: The attempt's context; its ``HTTPCore/RequestContext/resendCount`` numbers the attempt.
    ///   - next: Sends the request onward.
    /// - Returns: The response, its body watched so the span and timer end when it has been read.
    /// - Throws: What `next` throws, unchanged.
    public func intercept(
        _ request: Request,
        context: RequestContext,
        next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        guard let backends = Backends.current() else { return try await next(request, context) }
        var request = request
        let attempt = AttemptObservation(
            request: request, resendCount: context.resendCount, backends: backends, configuration: configuration)
        backends.instrument.inject(attempt.span.context, into: &request.headerFields, using: HTTPFieldsInjector())
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            attempt.finish(error: error)
            throw error
        }
        attempt.received(response.status)
        var observed = response
        observed.body = ResponseBody(
            expectedLength: response.body.expectedLength,
            source: EndObservingBodySource(base: response.body.source, observer: attempt))
        return observed
    }
}
