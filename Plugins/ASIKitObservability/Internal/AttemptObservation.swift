import FoundationEssentials
import HTTPCore
import Metrics
import Synchronization
import Tracing

/// One attempt's span and meters, ended exactly once: when its body ends, fails or is given up, when the
/// attempt fails, or, as a last resort, when the body is dropped unread.
final class AttemptObservation: Sendable {
    let span: any Span
    private let backends: Backends
    private let configuration: ObservabilityMiddleware.Configuration
    private let started: ContinuousClock.Instant
    private let method: String
    private let server: ServerAttributes
    private let active: Meter?
    private let state = Mutex(State())

    private struct State {
        var status: Int?
        var finished = false
    }

    init(
        request: Request,
        resendCount: Int,
        backends: Backends,
        configuration: ObservabilityMiddleware.Configuration
    ) {
        let method = request.method.rawValue
        let server = ServerAttributes(request.url)
        self.backends = backends
        self.configuration = configuration
        self.method = method
        self.server = server
        let span = backends.tracer.startSpan(method, context: .current ?? .topLevel, ofKind: .client)
        if backends.traces {
            span.updateAttributes { attributes in
                attributes["http.request.method"] = method
                attributes["url.full"] = server.fullURL
                attributes["server.address"] = server.address
                attributes["server.port"] = server.port
                if resendCount > 0 { attributes["http.request.resend_count"] = resendCount }
            }
        }
        self.span = span
        let dimensions = [
            ("http.request.method", method), ("server.address", server.address),
            ("server.port", String(server.port)), ("url.scheme", server.scheme),
        ]
        active = backends.metrics.map { factory in
            Meter(label: configuration.activeRequestsLabel, dimensions: dimensions, factory: factory)
        }
        active?.increment()
        started = .now
    }

    deinit {
        finish(error: nil)
    }

    /// Notes the response status; the attempt ends with the body.
    func received(_ status: HTTPResponse.Status) {
        state.withLock { $0.status = status.code }
        guard backends.traces else { return }
        span.attributes["http.response.status_code"] = status.code
        if status.code >= 400 { span.attributes["error.type"] = String(status.code) }
    }

    /// Ends the span and records the duration; later calls do nothing.
    /// - Parameter error: Why the attempt or its body failed, if it did.
    func finish(error: (any Error)?) {
        let (first, status) = state.withLock { state in
            defer { state.finished = true }
            return (!state.finished, state.status)
        }
        guard first else { return }
        let duration = started.duration(to: .now)
        let errorType = error.map(Self.errorType) ?? status.flatMap { $0 >= 400 ? String($0) : nil }
        active?.decrement()
        if let factory = backends.metrics {
            var dimensions = [("http.request.method", method)]
            if let status { dimensions.append(("http.response.status_code", String(status))) }
            dimensions += [("server.address", server.address), ("server.port", String(server.port))]
            if let errorType { dimensions.append(("error.type", errorType)) }
            let (seconds, attoseconds) = duration.components
            let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            Timer(label: configuration.durationLabel, dimensions: dimensions, factory: factory)
                .recordNanoseconds(nanoseconds)
        }
        guard backends.traces else { return span.end() }
        if let error {
            span.attributes["error.type"] = errorType
            span.recordError(error)
        }
        if errorType != nil { span.setStatus(SpanStatus(code: .error)) }
        span.end()
    }

    /// OpenTelemetry's `error.type` for a failure: the ``ClientError/Code`` name, `cancelled`, or the error's type.
    static func errorType(_ error: any Error) -> String {
        if let error = error as? ClientError { return error.code.description }
        if error is CancellationError { return "cancelled" }
        return String(describing: type(of: error))
    }
}
