public import HTTPCore
import Synchronization

/// A transport driven by a closure, which records every request it is given.
///
/// ```swift
/// let transport = ScriptedTransport { request, _ in
///     request.url.path() == "/old" ? .redirect(301, to: "/new") : Response(status: .ok)
/// }
/// ```
public final class ScriptedTransport: Transport {
    /// Answers one request.
    public typealias Handler = @Sendable (Request, RequestContext) async throws -> Response

    private let handler: Handler
    private let recorded = Mutex<[Request]>([])
    private let shutdowns = Atomic<Int>(0)

    /// Creates a transport that answers with `handler`.
    /// - Parameter handler: Returns the response for a request, or throws.
    public init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    /// Creates a transport that answers the requests in turn with the given responses, then fails.
    /// - Parameter responses: The responses, one per request; a response's body is replayed as bytes.
    public convenience init(sequence responses: [Response]) {
        let queue = Mutex(responses[...])
        self.init { _, _ in
            guard let next = queue.withLock({ $0.popFirst() }) else {
                throw ClientError(.internalError, message: "ScriptedTransport ran out of responses")
            }
            return next
        }
    }

    /// Answers every request with an empty 200.
    public static var ok: ScriptedTransport { ScriptedTransport { _, _ in Response(status: .ok) } }

    /// Fails every request with the code.
    /// - Parameter code: The error code to throw.
    /// - Returns: The transport.
    public static func failing(_ code: ClientError.Code) -> ScriptedTransport {
        ScriptedTransport { _, _ in throw ClientError(code, message: "scripted failure") }
    }

    /// Records the request and answers it.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The context.
    /// - Returns: The handler's response.
    /// - Throws: What the handler throws.
    public func send(_ request: Request, context: RequestContext) async throws -> Response {
        recorded.withLock { $0.append(request) }
        return try await handler(request, context)
    }

    /// Counts the call.
    public func shutdown() async throws {
        shutdowns.add(1, ordering: .relaxed)
    }

    /// Every request sent so far, in order, with the headers the pipeline added.
    public var requests: [Request] { recorded.withLock { $0 } }

    /// How many times ``shutdown()`` was called.
    public var shutdownCount: Int { shutdowns.load(ordering: .relaxed) }
}

extension Response {
    /// A redirect response with a `Location`, for scripts.
    /// - Parameters:
    ///   - status: The redirect status code, such as 301.
    ///   - location: The `Location` value.
    /// - Returns: The response.
    public static func redirect(_ status: Int, to location: String) -> Response {
        var fields = HTTPFields()
        fields[.location] = location
        return Response(status: HTTPResponse.Status(code: status), headerFields: fields)
    }

    /// A response with a text body, for scripts.
    /// - Parameters:
    ///   - text: The body.
    ///   - status: The status code.
    ///   - headerFields: Extra header fields.
    /// - Returns: The response.
    public static func text(_ text: String, status: Int = 200, headerFields: HTTPFields = [:]) -> Response {
        Response(status: HTTPResponse.Status(code: status), headerFields: headerFields,
                 body: ResponseBody(bytes: Array(text.utf8)))
    }
}
