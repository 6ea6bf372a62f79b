import HTTPCore

/// What ``HTTP1ResponseParser`` found in the bytes it was fed, in wire order.
///
/// Each response yields one final `.head`, then zero or more `.body` chunks, then `.end`. Interim 1xx heads
/// come before the final head and have ``HTTP1ResponseHead/isInformational`` set; they have no body and no `.end`.
enum HTTP1Event: Sendable {
    /// A response head (interim or final).
    case head(HTTP1ResponseHead)
    /// Body bytes, already stripped of chunk framing. Never empty.
    case body([UInt8])
    /// The end of the response; `trailers` holds the chunked trailer section, or `nil` when there was none.
    case end(trailers: HTTPFields?)
}
