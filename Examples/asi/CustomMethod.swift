import HTTPCore

/// `-X METHOD` on every hop, as curl sends it: curl's `-X` replaces the method of every request it sends,
/// redirects included ("-X changes the method for all requests, including redirects").
///
/// The pipeline still applies its redirect rules to the rest of the request: after a 301, 302 or 303 it drops the
/// body and the body's header fields (without `--post301`/`--post302`), so `-X POST -d DATA -L` sends `POST`
/// without the body after a 302, as curl 7.88 does; after a 307 or 308 the body goes again. Installed only
/// with `-X`.
struct CustomMethod: Middleware {
    let method: HTTPRequest.Method

    func intercept(
        _ request: Request,
        context: RequestContext,
        next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        guard request.method != method else { return try await next(request, context) }
        var hop = request
        hop.method = method
        return try await next(hop, context)
    }
}
