/// Why a page could not be archived. A resource that fails never fails the page; only the page itself and the
/// files the archive writes can.
public struct WebPageArchiveError: Error, Sendable, CustomStringConvertible {
    /// What went wrong; an opaque set, so codes can be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String { case pageStatus, pageTooLarge, writeFailed, invalidConfiguration }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The page did not arrive with a 2xx status after redirects (`asi` exits 22, as `curl -f`).
        public static let pageStatus = Code(.pageStatus)
        /// The page is longer than ``WebPageArchiver/Configuration/maxResourceBytes``.
        public static let pageTooLarge = Code(.pageTooLarge)
        /// A file of a local archive could not be written.
        public static let writeFailed = Code(.writeFailed)
        /// A limit in the configuration is out of range.
        public static let invalidConfiguration = Code(.invalidConfiguration)

        /// The code's stable name.
        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// The page's final status, for ``Code/pageStatus``.
    public var status: Int?
    /// Human text; it never holds secrets (no URL user info, no cookie values).
    public var message: String
    /// The error underneath (a `ClientError`, a file system error), if any.
    public var underlying: (any Error)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - status: The page's status.
    ///   - message: Human text.
    ///   - underlying: The error underneath.
    public init(_ code: Code, status: Int? = nil, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.status = status
        self.message = message
        self.underlying = underlying
    }

    /// `WebPage <code>: <message>`.
    public var description: String { "WebPage \(code): \(message)" }
}
