/// Wraps every transport call: can change the request, the response, or both (content codecs and
/// throttling are middleware).
///
/// ## Implementation requirements
/// Call `next` at most once per attempt unless you mean to retry. Throw ``ClientError`` with
/// ``ClientError/Stage/middleware(_:)``.
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
