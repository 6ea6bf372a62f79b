/// Receives progress reports while bodies go out and come in.
///
/// ## Implementation requirements
/// Transports call ``receive(_:)`` inline, possibly once per chunk, from any thread. Return quickly, never block,
/// and never throw; hand heavy work (drawing a progress bar) to another thread.
public protocol ProgressSink: Sendable {
    /// Takes one report.
    /// - Parameter event: The report.
    func receive(_ event: ProgressEvent)
}
