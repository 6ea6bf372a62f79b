import FoundationEssentials
public import HTTPCore

/// The redirect rules: which statuses redirect, what the next request looks like, and what must not follow it.
///
/// ASIHTTPRequest's rules (asi-features.md §7) plus 308:
/// - 301, 302, 303, 307 and 308 with a `Location` redirect; other statuses never do.
/// - ``RedirectBehavior/browser``: 301, 302 and 303 re-issue as `GET` without the body; 307 and 308 keep the
///   method and body.
/// - ``RedirectBehavior/rfc2616``: 301 and 302 keep method and body too; 303 is always `GET`.
/// - ``RequestOptions/keepsMethodOnRedirect`` (curl's `-X`) keeps the method where either rule says `GET`; the
///   body is dropped all the same.
/// - `HEAD` stays `HEAD` (a redirect never turns a `HEAD` into a download).
/// - `Authorization`, `Proxy-Authorization`, `Cookie` and a caller's `Host` headers, and
///   ``RequestOptions/credential``, never go to another origin (a `Host` field also scopes cookies, so it must
///   not carry one site's cookies to the next), unless ``RequestOptions/keepsCredentialsOnRedirect`` keeps
///   `Authorization` and the credential (curl's `--location-trusted`). Other headers
///   are kept (a deliberate fix of ASIHTTPRequest quirk 1; see `Docs/Decisions/0001-redirect-headers.md`),
///   except the body's own headers when the body is dropped.
public enum RedirectPolicy {
    /// The statuses that redirect.
    public static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send next, or `nil` when `status` does not redirect.
    /// - Parameters:
    ///   - status: The response status code.
    ///   - location: The response's `Location` value.
    ///   - request: The request that got the redirect.
    /// - Returns: The next hop's request, or `nil` for no redirect.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidRequest`` when the location is not an `http` or
    ///   `https` URL, and with ``ClientError/Code/uploadFailed`` when the body must be sent again but cannot be.
    public static func nextRequest(status: Int, location: String?, after request: Request) throws -> Request? {
        guard redirectStatuses.contains(status), let location, !location.isEmpty else { return nil }
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
            Origin(target) != nil
        else {
            throw ClientError(.invalidRequest, stage: .pipeline, message: "Cannot follow redirect to \(location)")
        }
        var next = request
        next.url = target
        if changesToGET(status: status, method: request.method, behavior: request.options.redirectBehavior) {
            if !request.options.keepsMethodOnRedirect { next.method = .get }
            next.body = nil
            for name in bodyFieldNames { next.headerFields[name] = nil }
        } else if let body = request.body, !body.isReplayable {
            throw ClientError(
                .uploadFailed, stage: .pipeline,
                message: "Redirect \(status) needs the request body again, but it is a one-time stream")
        }
        if Origin(target) != Origin(request.url) {
            let trusted = request.options.keepsCredentialsOnRedirect
            for name in originBoundFieldNames where !(trusted && name == .authorization) {
                next.headerFields[name] = nil
            }
            // the request's own credentials belong to the first origin, unless the caller trusts every origin
            if !trusted { next.options.credential = nil }
        }
        next.options.requestCookies = []
        return next
    }

    /// Whether a redirect with `status` re-issues `method` as `GET` without a body (with
    /// ``RequestOptions/keepsMethodOnRedirect``, only without the body).
    /// - Parameters:
    ///   - status: The redirect status.
    ///   - method: The method of the request that got it.
    ///   - behavior: The request's redirect behaviour.
    /// - Returns: `true` when the next hop is a `GET`.
    public static func changesToGET(status: Int, method: HTTPRequest.Method, behavior: RedirectBehavior) -> Bool {
        if method == .head { return false }
        switch status {
        case 303: return true
        case 301, 302: return behavior == .browser
        default: return false
        }
    }

    /// Header fields that belong to one origin only.
    static let originBoundFieldNames: [HTTPField.Name] = [.authorization, .proxyAuthorization, .cookie, hostFieldName]
    /// `Host`, which swift-http-types has no constant for (it models it as the `:authority` pseudo-field).
    static let hostFieldName = HTTPField.Name("Host")!
    /// Header fields that describe the body.
    static let bodyFieldNames: [HTTPField.Name] = [.contentType, .contentLength, .contentEncoding, .transferEncoding]
}
