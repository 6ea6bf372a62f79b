import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import TerminalProgress
import Testing

/// The queue's and progress bar's public types cross into a detached task; this fails to compile if one stops
/// being Sendable.
@Suite struct QueueSendableTests {
    @Test func publicQueueTypesAreSendable() async throws {
        let queue = RequestQueue(client: Client(transport: ScriptedTransport.ok))
        let values:
            (
                RequestQueue, RequestQueue.Configuration, QueueCallbacks, QueueResult,
                TerminalProgressBar<ContinuousClock>, TerminalProgressBar<ContinuousClock>.Configuration
            ) = (
                queue, RequestQueue.Configuration(), QueueCallbacks(),
                QueueResult(
                    requestID: .next(), request: Request("http://a.example/"),
                    result: .failure(ClientError(.cancelled))),
                TerminalProgressBar(configuration: .init(isTerminal: false), output: { _ in }),
                TerminalProgressBar<ContinuousClock>.Configuration()
            )
        let width = await Task.detached { values.0.configuration.maxConcurrentRequests }.value
        #expect(width == 4)
        #expect(values.3.request.url.host() == "a.example")
    }
}
