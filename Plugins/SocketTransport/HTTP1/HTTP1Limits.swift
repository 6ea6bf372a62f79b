/// Size limits the HTTP/1.1 response parser enforces against a misbehaving or hostile server.
///
/// Breaking a limit throws ``ClientError`` with ``ClientError/Code/protocolViolation`` and a message that names
/// the limit, for example "response head exceeds 65536 bytes".
struct HTTP1Limits: Sendable, Equatable {
    /// The most bytes of one head: the status line, every header line and the line terminators, including
    /// the empty line that ends the head. Interim (1xx) heads and the trailer section are each counted alone.
    var maxHeadBytes = 64 * 1024
    /// The most header fields in one head or trailer section. Folded continuation lines do not count.
    var maxHeaderCount = 100
    /// The most bytes of any single line without its terminator: status line, header, chunk-size line or trailer.
    var maxLineLength = 16 * 1024

    /// Creates limits; every argument has the default shown.
    /// - Parameters:
    ///   - maxHeadBytes: The most bytes of one head.
    ///   - maxHeaderCount: The most header fields in one head.
    ///   - maxLineLength: The most bytes of one line.
    init(maxHeadBytes: Int = 64 * 1024, maxHeaderCount: Int = 100, maxLineLength: Int = 16 * 1024) {
        self.maxHeadBytes = maxHeadBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxLineLength = maxLineLength
    }
}
