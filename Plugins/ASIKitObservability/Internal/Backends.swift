import Metrics
import Tracing

/// The tracer, instrument and metrics factory in force for this task, or `nil` when all three are the no-op
/// defaults (nothing is bootstrapped or bound), so that the middleware can step aside at the cost of three reads.
struct Backends {
    let tracer: any Tracer
    let instrument: any Instrument
    /// `nil` when no metrics backend is bootstrapped: no timer or meter is made.
    let metrics: (any MetricsFactory)?
    /// Whether spans are recorded; a no-op tracer's spans are not.
    let traces: Bool

    static func current() -> Backends? {
        let tracer = InstrumentationSystem.tracer
        let instrument = InstrumentationSystem.instrument
        let factory = MetricsSystem.factory
        let traces = !(tracer is NoOpTracer)
        let propagates = traces || !(instrument is NoOpInstrument || instrument is NoOpTracer)
        let metrics: (any MetricsFactory)? = factory is NOOPMetricsHandler ? nil : factory
        guard propagates || metrics != nil else { return nil }
        return Backends(tracer: tracer, instrument: instrument, metrics: metrics, traces: traces)
    }
}
