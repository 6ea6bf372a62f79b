import HTTPCore

/// `-v` for every hop, as curl prints it: each request as it goes to the transport (`> ` lines) and each
/// response head as it comes back (`< ` lines), for redirects and for 401/407 challenges alike, with
/// `* Issue another request to this URL: '...'` before every request after the first (curl's line).
///
/// A middleware sees each attempt the pipeline sends, after the pipeline has added its own fields (`User-Agent`,
/// `Accept-Encoding`, `Cookie`, `Authorization`) and after the other middleware (it is installed last), so the
/// lines show what is sent; secrets stay `<redacted>` (``Verbose/secretFields``). Installed only with `-v`.
struct VerboseExchange: Middleware {
    func intercept(
        _ request: Request,
        context: RequestContext,
        next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        var text = ""
        if context.resendCount > 0 {
            text += "* Issue another request to this URL: '\(Verbose.redacted(request.url))'\n"
        }
        Output.writeError(text + Verbose.requestText(request, context: context))
        let response = try await next(request, context)
        Output.writeError(Verbose.responseText(statusLine: response.statusLine, headerFields: response.headerFields))
        return response
    }
}
