/// A clock seen as offsets from the moment the limiter was made, so the limiter's state is plain `Duration`s
/// whatever clock is injected (`ContinuousClock` by default, `ManualClock` in tests).
struct Timeline: Sendable {
    /// The time since the start.
    let now: @Sendable () -> Duration
    /// Sleeps until the given offset from the start; throws `CancellationError` when the task is cancelled.
    let sleep: @Sendable (Duration) async throws -> Void

    /// Wraps `clock`, starting now.
    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
    }
}
