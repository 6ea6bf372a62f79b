import FoundationEssentials
import HTTPCore
import HTTPTypes
import OpenAPIRuntime

extension ASIKitTransport {
    /// The request's URL: `baseURL` with the request's path appended and its query, as the generated client
    /// encoded them.
    /// - Throws: ``HTTPCore/ClientError`` with ``HTTPCore/ClientError/Code/invalidRequest`` when the two do not
    ///   make a URL.
    static func url(for request: HTTPRequest, baseURL: URL) throws -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
            let requested = URLComponents(string: request.path ?? "")
        else {
            throw HTTPCore.ClientError(
                .invalidRequest, stage: .pipeline, message: "Cannot make a URL from the server URL and the path")
        }
        var path = components.percentEncodedPath
        if path.hasSuffix("/"), requested.percentEncodedPath.hasPrefix("/") { path.removeLast() }
        components.percentEncodedPath = path + requested.percentEncodedPath
        components.percentEncodedQuery = requested.percentEncodedQuery
        guard let url = components.url else {
            throw HTTPCore.ClientError(
                .invalidRequest, stage: .pipeline, message: "Cannot make a URL from the server URL and the path")
        }
        return url
    }

    /// A request body that pulls from `body` while it is sent, replayable exactly when `body` can be iterated
    /// more than once.
    static func requestBody(from body: HTTPBody) -> RequestBody {
        let length: Int64? = switch body.length {
        case .known(let length): length
        case .unknown: nil
        }
        let replayable = body.iterationBehavior == .multiple
        let iterations = IterationGuard(allowsMore: replayable)
        return .stream(length: length, isReplayable: replayable) {
            guard iterations.begin() else {
                return RequestBody.Chunks(next: {
                    throw HTTPCore.ClientError(
                        .uploadFailed, stage: .pipeline,
                        message: "The request body iterates once (HTTPBody.iterationBehavior .single) and was sent "
                            + "already")
                })
            }
            let iterator = HTTPBodyIterator(body.makeAsyncIterator())
            return RequestBody.Chunks(next: { try await iterator.next() })
        }
    }

    /// A response body for the generated client: the client's streaming body, read once.
    static func httpBody(from body: ResponseBody) -> HTTPBody {
        let length: HTTPBody.Length = body.expectedLength.map { .known($0) } ?? .unknown
        return HTTPBody(ResponseChunks(body: body), length: length, iterationBehavior: .single)
    }

    /// Whether a response to `method` with `status` has a body (RFC 9110 §6.4.1).
    static func hasBody(method: HTTPRequest.Method, status: HTTPResponse.Status) -> Bool {
        method != .head && status.kind != .informational && status.code != 204 && status.code != 304
    }
}
