/// How the body of a response is delimited, decided from its head by RFC 9112 §6.3.
enum ResponseFraming: Equatable, Sendable {
    /// No body: a response to `HEAD`, a 1xx, 204 or 304, a 101, or a 2xx answer to `CONNECT`.
    case none
    /// Exactly this many bytes follow the head.
    case contentLength(Int64)
    /// The body uses the chunked transfer coding.
    case chunked
    /// The body runs until the server closes the connection.
    case closeDelimited
}
