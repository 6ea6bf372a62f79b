import FileKeyring
import FoundationEssentials
import HTTPCore

/// curl's `.netrc` on a redirect: the request's own credential never follows it to another host (the pipeline
/// drops it), but curl looks the new host up in the `.netrc` and sends that host's entry as Basic (curl tests 257
/// and 479). A hop that already has an `Authorization` field, a credential of its own or a user in its URL is left
/// alone, so the first hop keeps the precedence ``CredentialSources/apply(to:preemptive:)`` chose. Installed only
/// while `.netrc` credentials go out up front (not with `--anyauth`).
struct NetrcRedirectAuthorization: Middleware {
    let netrc: NetrcFile

    func intercept(
        _ request: Request,
        context: RequestContext,
        next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        guard request.headerFields[.authorization] == nil, request.options.credential == nil,
            request.url.user(percentEncoded: false) == nil, let host = request.url.host(),
            let credential = netrc.credential(forHost: host)
        else { return try await next(request, context) }
        var hop = request
        let token = Data("\(credential.user):\(credential.password)".utf8).base64EncodedString()
        hop.headerFields[.authorization] = "Basic \(token)"
        return try await next(hop, context)
    }
}
