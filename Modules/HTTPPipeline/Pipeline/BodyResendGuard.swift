import FoundationEssentials
import HTTPCore

/// Refuses to send a request body that could not arrive whole, instead of sending it short.
///
/// Two cases: a one-time stream (``RequestBody/isReplayable`` `false`) that a challenge needs again after it was
/// sent, which would go out empty or truncated; and a body of unknown length, which needs chunked transfer
/// encoding, for an origin that has answered with HTTP/1.0 and so cannot receive it (RFC 9112 §6.1). Both end the
/// request with ``ClientError/Code/uploadFailed``. Redirects check the first case in ``RedirectPolicy``.
struct BodyResendGuard {
    /// Whether a one-time stream body has been handed to the transport.
    private(set) var sentOneTimeBody = false
    /// The origin that last answered with HTTP/1.0.
    private var http10Origin: Origin?

    /// Whether the request's body may be sent again after a timeout.
    /// - Parameter request: The request about to be retried.
    /// - Returns: `false` when its body is a one-time stream that was already sent.
    func mayRetry(_ request: Request) -> Bool {
        !(sentOneTimeBody && request.body.map { !$0.isReplayable && $0.length != 0 } == true)
    }

    /// Checks a hop before it is sent.
    /// - Parameter hop: The request about to go to the transport.
    /// - Throws: ``ClientError`` with ``ClientError/Code/uploadFailed`` when its body cannot arrive whole.
    func check(_ hop: Request) throws {
        guard let body = hop.body, body.length != 0 else { return }
        if sentOneTimeBody, !body.isReplayable {
            throw ClientError(
                .uploadFailed, stage: .pipeline,
                message: "The server asked for the request again, but its body is a one-time stream already sent")
        }
        if body.length == nil, let http10Origin, Origin(hop.url) == http10Origin {
            throw ClientError(
                .uploadFailed, stage: .pipeline,
                message: "The server answers with HTTP/1.0, which cannot receive a body of unknown length (chunked)")
        }
    }

    /// Records a hop handed to the transport.
    /// - Parameter hop: The request sent.
    mutating func sent(_ hop: Request) {
        if let body = hop.body, !body.isReplayable, body.length != 0 { sentOneTimeBody = true }
    }

    /// Records the version a response came with.
    /// - Parameters:
    ///   - version: The response's HTTP version.
    ///   - url: The URL of the request it answers.
    mutating func received(_ version: HTTPVersion, for url: URL) {
        if version < .http1_1 { http10Origin = Origin(url) }
    }
}
