/// Wraps every transport call: can change the request, the response, or both (signing a request, adding a
/// header, tracing an attempt).
///
/// Middleware runs once per hop or attempt, outermost first, inside the pipeline's redirect, challenge and retry
/// loop; ``RequestContext/resendCount`` numbers the attempts (0 for the first). Content codings and bandwidth
/// limits have seams of their own (``ContentCodec``, ``BandwidthLimiter``); they are not middleware.
///
/// ## Implementation requirements
/// - Call `next` at most once per attempt unless you mean to retry.
/// - Errors: the pipeline names the middleware in the error's ``ClientError/stage``
///   (``ClientError/Stage/middleware(_:)`` with the type's name) when you leave the stage `nil`, and wraps an
///   error that is not a ``ClientError`` as ``ClientError/Code/middlewareFailed``. Errors coming back from
///   `next` keep their stage (usually the transport's); rethrow them unchanged. `CancellationError` passes
///   through unwrapped.
/// - To change a response, copy the one `next` returned and mutate it rather than building a new ``Response``:
///   its ``Response/route`` and ``Response/isFromProxy`` tell the pipeline whether a 407 is a proxy's challenge.
/// - A middleware with resources or background work uses ``PluginLifecycle``; `Client.shutdown()` reaches it.
///
/// ## Implement a custom middleware
/// ```swift
/// struct RequestIDHeader: Middleware {
///     func intercept(_ request: Request, context: RequestContext,
///                    next: @Sendable (Request, RequestContext) async throws -> Response) async throws -> Response {
///         var request = request
///         request.headerFields[HTTPField.Name("X-Request-ID")!] = context.requestID.description
///         return try await next(request, context)
///     }
/// }
/// ```
public protocol Middleware: PluginLifecycle {
    /// Handles one attempt.
    /// - Parameters:
    ///   - request: The request about to be sent.
    ///   - context: The attempt's context.
    ///   - next: Sends the request onward (to the next middleware, then the transport).
    /// - Returns: The response.
    /// - Throws: ``ClientError`` or `CancellationError`.
    func intercept(
        _ request: Request,
        context: RequestContext,
        next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response
}
