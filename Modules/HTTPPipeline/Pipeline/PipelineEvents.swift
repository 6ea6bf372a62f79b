import FoundationEssentials
import HTTPCore

/// What the pipeline reports while it works, for the callback style and (later) queues.
struct PipelineEvents: Sendable {
    var started: @Sendable (Request) -> Void = { _ in }
    var receivedHead: @Sendable (ResponseHead) -> Void = { _ in }
    var willRedirect: @Sendable (URL) -> Void = { _ in }
}
