/// What ``LoopbackServer`` does in answer to one request: a script of exact writes, pauses and faults.
///
/// Nothing is added or fixed up: the bytes go out as given, so a test can send malformed heads, wrong lengths or
/// duplicate headers on purpose. The factories (``status(_:reason:headers:body:)``, ``ok(_:)``,
/// ``chunked(status:headers:chunks:trailers:chunkDelay:)``, ...) build well-formed scripts.
///
/// ```swift
/// let server = try LoopbackServer { request in
///     request.path == "/slow" ? .ok("late").delayed(by: .milliseconds(200)) : .raw("HTTP/1.1 200 OK\r\n\r\nhi")
/// }
/// ```
public struct LoopbackResponse: Sendable {
    /// One step of a response script.
    public enum Action: Sendable {
        /// Writes exactly these bytes.
        case write([UInt8])
        /// Writes these body bytes, unless the request was `HEAD` (then writes nothing). The factories put the
        /// body here, so a `HEAD` request gets the same head, `Content-Length` included, and no body.
        case body([UInt8])
        /// Waits this long before the next step. Server shutdown ends the wait and the connection.
        case sleep(Duration)
        /// Closes the connection normally (FIN) and ignores the rest of the script.
        case close
        /// Resets the connection (`SO_LINGER` 0, then close: the client sees `ECONNRESET`) and ignores the rest.
        case reset
        /// Stops answering but keeps the connection open until the client closes it or the server shuts down.
        case stall
    }

    /// The steps, run in order.
    public var actions: [Action]
    /// Whether the server reads another request on the connection after the script. It still closes when the
    /// request asked for that (`Connection: close`, or HTTP/1.0 without `Connection: keep-alive`).
    public var keepAlive: Bool

    /// Creates a response script.
    /// - Parameters:
    ///   - actions: The steps, run in order.
    ///   - keepAlive: Whether to read further requests afterwards; when `nil`, `true` unless `actions` contains
    ///     ``Action/close``, ``Action/reset`` or ``Action/stall``.
    public init(actions: [Action], keepAlive: Bool? = nil) {
        self.actions = actions
        self.keepAlive = keepAlive ?? !actions.contains { $0.endsConnection }
    }

    /// The same response after a pause: the server waits before writing anything.
    /// - Parameter delay: How long to wait.
    /// - Returns: The delayed response.
    public func delayed(by delay: Duration) -> LoopbackResponse {
        LoopbackResponse(actions: [.sleep(delay)] + actions, keepAlive: keepAlive)
    }

    /// The same response followed by more steps, for example `.close` to end the connection after it.
    /// - Parameter more: Steps to run after this response's.
    /// - Returns: The longer response; it keeps the connection only if this one did and `more` does not end it.
    public func followed(by more: Action...) -> LoopbackResponse {
        LoopbackResponse(actions: actions + more, keepAlive: keepAlive && !more.contains { $0.endsConnection })
    }
}

extension LoopbackResponse.Action {
    /// Whether the step ends the connection.
    var endsConnection: Bool {
        switch self {
        case .close, .reset, .stall: true
        case .write, .body, .sleep: false
        }
    }
}
