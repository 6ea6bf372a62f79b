/// How a request body is delimited on the wire.
enum BodyFraming: Equatable, Sendable {
    /// No body and no framing header.
    case none
    /// A body of exactly this many bytes, announced with `Content-Length` (which may be 0).
    case contentLength(Int64)
    /// A body of unknown length, sent with `Transfer-Encoding: chunked`.
    case chunked
}
