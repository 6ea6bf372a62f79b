/// Size limits the HTTP/1.1 response parser enforces against a misbehaving or hostile server
/// (``POSIXTransport/Configuration/responseLimits``).
///
/// Breaking a limit throws ``HTTPCore/ClientError`` with ``HTTPCore/ClientError/Code/protocolViolation`` (stage
/// `transport`) and a message that names the limit, for example "response head exceeds 65536 bytes"; the
/// connection is closed. The defaults are stricter than curl's (300 KiB of heads, 100 KiB per line, 5000 fields)
/// and close to what browsers accept; see `Docs/Limits.md` and `Docs/Decisions/0020-limits.md`.
public struct HTTP1Limits: Sendable, Equatable {
    /// The most bytes of one head: the status line, every header line and the line terminators, including
    /// the empty line that ends the head. Interim (1xx) heads and the trailer section are each counted alone.
    /// Default 64 KiB.
    public var maxHeadBytes: Int
    /// The most header fields in one head or trailer section. Folded continuation lines do not count.
    /// Default 100.
    public var maxHeaderCount: Int
    /// The most bytes of any single line without its terminator: status line, header, chunk-size line (with its
    /// extensions) or trailer. Default 16 KiB.
    public var maxLineLength: Int
    /// The most interim (1xx other than 101) responses before the final one, per request; one more fails the
    /// request, so that a server cannot keep a request waiting with an endless stream of `102 Processing` heads.
    /// Default 100.
    public var maxInterimResponses: Int

    /// The most hex digits of a chunk size, leading zeros included (curl's limit: 16, the digits of a 64-bit size).
    public static let maxChunkSizeDigits = 16

    /// Creates limits; every argument has the default shown.
    ///
    /// A limit below 1 is a programmer error and traps.
    /// - Parameters:
    ///   - maxHeadBytes: The most bytes of one head.
    ///   - maxHeaderCount: The most header fields in one head.
    ///   - maxLineLength: The most bytes of one line.
    ///   - maxInterimResponses: The most interim responses before the final one.
    public init(
        maxHeadBytes: Int = 64 * 1024,
        maxHeaderCount: Int = 100,
        maxLineLength: Int = 16 * 1024,
        maxInterimResponses: Int = 100
    ) {
        precondition(maxHeadBytes > 0 && maxHeaderCount > 0 && maxLineLength > 0 && maxInterimResponses > 0,
                     "HTTP1Limits must be at least 1")
        self.maxHeadBytes = maxHeadBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxLineLength = maxLineLength
        self.maxInterimResponses = maxInterimResponses
    }
}
