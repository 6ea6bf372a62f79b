import FoundationEssentials
import HTTPCore

/// `-v` for every hop, as curl prints it: each request as it goes to the transport (`> ` lines) and each
/// response head as it comes back (`< ` lines), for redirects and for 401/407 challenges alike, with
/// `* Issue another request to this URL: '...'` before every request after the first (curl's line).
///
/// A middleware sees each attempt the pipeline sends, after the pipeline has added its own fields (`User-Agent`,
/// `Accept-Encoding`, `Cookie`, `Authorization`) and after the other middleware (it is installed last), so the
/// lines show what is sent; secrets stay `<redacted>` (``Verbose/secretFields``). Installed only with `-v`.
///
/// The request line names the protocol the request went over, as curl's does (`GET / HTTP/2`). Where HTTP/2 may
/// carry it (an https URL with HTTP/2 offered by ALPN, any URL with `--http2-prior-knowledge`) only the connection
/// knows, so the request's lines are printed once its response head has come (`< HTTP/2 200 `), or once it failed,
/// with the version the request asked for. Other requests are printed as they go out.
struct VerboseExchange: Middleware {
    /// Whether HTTP/2 is offered by ALPN on https connections.
    let offersHTTP2: Bool
    /// Whether HTTP/2 is spoken with prior knowledge on cleartext connections too.
    let priorKnowledge: Bool

    /// Whether the protocol of `request` is known only once its connection is open.
    private func waitsForProtocol(_ request: Request) -> Bool {
        request.url.scheme?.lowercased() == "https" ? offersHTTP2 || priorKnowledge : priorKnowledge
    }

    func intercept(
        _ request: Request,
        context: RequestContext,
        next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        var text = ""
        if context.resendCount > 0 {
            text += "* Issue another request to this URL: '\(Verbose.redacted(request.url))'\n"
        }
        guard waitsForProtocol(request) else {
            Output.writeError(text + Verbose.requestText(request, context: context))
            let response = try await next(request, context)
            Output.writeError(Verbose.responseText(response.head))
            return response
        }
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            Output.writeError(text + Verbose.requestText(request, context: context))
            throw error
        }
        // An HTTP/1 response says its server's version, not the one the request line carried.
        let version = response.version >= .http2 ? response.version : nil
        Output.writeError(
            text + Verbose.requestText(request, context: context, version: version)
                + Verbose.responseText(response.head))
        return response
    }
}
