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

    /// Two lock-protected reads and three checks of a concrete type when nothing is bootstrapped; the search for
    /// a tracer among the instruments (a cast to an existential) only when an instrument is.
    static func current() -> Backends? {
        let instrument = InstrumentationSystem.instrument
        let factory = MetricsSystem.factory
        let metrics: (any MetricsFactory)? = factory is NOOPMetricsHandler ? nil : factory
        if instrument is NoOpInstrument || instrument is NoOpTracer {
            guard let metrics else { return nil }
            return Backends(tracer: NoOpTracer(), instrument: instrument, metrics: metrics, traces: false)
        }
        let tracer = InstrumentationSystem.tracer
        return Backends(tracer: tracer, instrument: instrument, metrics: metrics, traces: !(tracer is NoOpTracer))
    }
}
