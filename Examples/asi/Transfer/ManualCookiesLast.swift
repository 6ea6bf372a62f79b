import HTTPCore

/// Moves the `-b "name=value"` cookies behind the stored ones in the `Cookie` field, as curl sends them.
///
/// `asi` hands `-b` strings to the pipeline as ``RequestOptions/requestCookies``, which ASIHTTPRequest sends
/// before the stored cookies; curl sends its cookie engine's cookies first and the `-b` string after them. The
/// pipeline empties `requestCookies` on redirect hops, so this only touches the hops that carry them.
struct ManualCookiesLast: Middleware {
    func intercept(
        _ request: Request,
        context: RequestContext,
        next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        let manual = request.options.requestCookies
        guard !manual.isEmpty, let field = request.headerFields[.cookie] else {
            return try await next(request, context)
        }
        var request = request
        request.headerFields[.cookie] = Self.reordered(field, manual: manual)
        return try await next(request, context)
    }

    /// `field` with the run of `manual` pairs moved to its end; unchanged when they are not found in it.
    /// - Parameters:
    ///   - field: The `Cookie` field the pipeline built: the caller's own field, `manual`, then stored cookies.
    ///   - manual: The request's own cookies.
    /// - Returns: The field with the stored cookies before `manual`.
    static func reordered(_ field: String, manual: [Cookie]) -> String {
        let pairs = field.split(separator: "; ", omittingEmptySubsequences: false).map(String.init)
        let run = manual.map { "\($0.name)=\($0.value)" }
        guard pairs.count > run.count,
            let start = (0...(pairs.count - run.count)).first(where: { Array(pairs[$0..<$0 + run.count]) == run })
        else { return field }
        var result = pairs
        result.removeSubrange(start..<start + run.count)
        return (result + run).joined(separator: "; ")
    }
}
