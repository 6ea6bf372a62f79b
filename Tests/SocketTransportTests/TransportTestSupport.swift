import FoundationEssentials
import HTTPCore
import HTTPTesting
import Logging
@testable import SocketTransport
import Synchronization
import Testing

/// A progress sink that drops everything.
struct DiscardingProgress: ProgressSink {
    func receive(_ event: ProgressEvent) {}
}

/// A request context for tests.
func testContext(progress: any ProgressSink = DiscardingProgress()) -> RequestContext {
    RequestContext(progress: progress, logger: Logger(label: "SocketTransportTests"))
}

/// A request with a short timeout, so a hang fails the test instead of stalling the suite.
func testRequest(
    _ url: URL,
    method: HTTPRequest.Method = .get,
    body: RequestBody? = nil,
    timeout: Duration = .seconds(10)
) -> Request {
    var request = Request(url: url, method: method, body: body)
    request.options.timeout = timeout
    return request
}

/// Sends a request and collects the body.
func fetch(
    _ transport: POSIXTransport,
    _ request: Request,
    context: RequestContext = testContext()
) async throws -> (Response, [UInt8]) {
    let response = try await transport.send(request, context: context)
    let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
    return (response, body)
}

/// Expects `body` to throw a `ClientError` with `code`, and returns it.
@discardableResult
func expectClientError(
    _ code: ClientError.Code,
    _ body: () async throws -> Void
) async -> ClientError? {
    do {
        try await body()
    } catch let error as ClientError {
        if error.code != code { Issue.record("expected \(code), got \(error)") }
        return error
    } catch {
        Issue.record("expected ClientError \(code), got \(error)")
        return nil
    }
    Issue.record("expected ClientError \(code), but nothing was thrown")
    return nil
}

/// Polls `condition` every 10 ms for up to `seconds` (for state another thread changes, such as a server
/// noticing a close); returns whether it became true.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// A value shared between tasks and server threads in a test.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}
