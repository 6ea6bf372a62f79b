package import FoundationEssentials
package import HTTPCore
import Logging
import Synchronization

/// A progress sink that drops everything.
package struct DiscardingProgress: ProgressSink {
    /// Creates the sink.
    package init() {}

    package func receive(_ event: ProgressEvent) {}
}

/// A request context for tests.
package func testContext(progress: any ProgressSink = DiscardingProgress()) -> RequestContext {
    RequestContext(progress: progress, logger: Logger(label: "SocketTransportTests"))
}

/// The timeout of a test's request when the test is not about timeouts: ten minutes, so a hang still fails the test
/// but a slow machine never does. At the start of the full parallel suite on two busy cores a request's task has
/// waited more than a minute for a cooperative thread, and a TLS handshake through a proxy has taken over 20 s;
/// connect and inactivity deadlines must not count that against the request.
package let generousTimeout: Duration = .seconds(600)

/// A request with a timeout, so a hang fails the test instead of stalling the suite; by default
/// ``generousTimeout``. Tests of the timeout itself pass their own.
///
/// Its idle connections stay pooled for ``generousTimeout`` too (not the default 60 s): tests count connections
/// to show reuse, and a test's task that waits over a minute for a thread between two requests would otherwise
/// find its connection expired and open another. Tests of idle expiry set their own.
package func testRequest(
    _ url: URL,
    method: HTTPRequest.Method = .get,
    body: RequestBody? = nil,
    timeout: Duration = generousTimeout
) -> Request {
    var request = Request(url: url, method: method, body: body)
    request.options.timeout = timeout
    request.options.persistentConnectionTimeout = generousTimeout
    return request
}

/// Sends a request over any transport (`POSIXTransport`, the HTTP/2 plug-in) and collects the body.
package func fetch(
    _ transport: some Transport,
    _ request: Request,
    context: RequestContext = testContext()
) async throws -> (Response, [UInt8]) {
    let response = try await transport.send(request, context: context)
    let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
    return (response, body)
}

/// Polls `condition` every 10 ms for up to `seconds` (for state another thread changes, such as a server
/// noticing a close); returns whether it became true. The default deadline is ten minutes: in the full parallel
/// suite on a busy two-core machine a task can wait more than a minute for a cooperative thread, and a condition
/// that holds returns at once, so only a hang pays the wait.
package func eventually(within seconds: Double = 600, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// A value shared between tasks and server threads in a test.
package final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    package init(_ value: Value) {
        mutex = Mutex(value)
    }

    package func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}
