import HTTPCore

/// ASIHTTPRequest's method rule for bodies: a `GET` or `HEAD` that carries a non-empty body is sent as `POST`
/// (so `Request(url:body:)` posts, as `appendPostData:` did); `PUT`, `DELETE` and every other method keep theirs
/// (`DELETE` deliberately: see Docs/Decisions/0003). ``RequestOptions/keepsMethodWithBody`` turns it off.
enum BodyMethodRule {
    static func applied(to request: Request) -> Request {
        guard let body = request.body, body.length != 0, request.method == .get || request.method == .head,
            !request.options.keepsMethodWithBody
        else {
            return request
        }
        var request = request
        request.method = .post
        return request
    }
}
