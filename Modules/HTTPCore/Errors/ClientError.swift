/// The one error type the framework throws.
///
/// A `ClientError` names what went wrong with a stable ``Code`` (safe as a metrics label), where it went wrong
/// (``Stage``), a human-readable ``message`` that never contains credentials, cookie values or tokens, and the
/// backend's own error in ``underlying`` (for example a ``SyscallError``).
///
/// An HTTP error status is not an error: a 404 or a 500 finishes normally with that status, as in
/// ASIHTTPRequest. Cancellation of an `async` call rethrows Swift's `CancellationError`; the callback and
/// blocking styles report it as ``Code/cancelled``.
public struct ClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var code: Code
    /// Which part of the pipeline failed, when known.
    public var stage: Stage?
    /// Human-readable detail. Never contains secrets.
    public var message: String
    /// The error reported by the backend, if any.
    public var underlying: (any Error)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - stage: Which part of the pipeline failed; the pipeline fills it in when `nil`.
    ///   - message: Human-readable detail; must not contain secrets.
    ///   - underlying: The backend's own error, if any.
    public init(_ code: Code, stage: Stage? = nil, message: String = "", underlying: (any Error)? = nil) {
        self.code = code
        self.stage = stage
        self.message = message
        self.underlying = underlying
    }

    /// `code`, then the stage and message when present, then the underlying error.
    public var description: String {
        var text = code.description
        if let stage { text += " (\(stage))" }
        if !message.isEmpty { text += ": \(message)" }
        if let underlying { text += " [\(underlying)]" }
        return text
    }
}

extension ClientError {
    /// The part of the pipeline an error came from.
    public struct Stage: Sendable, Hashable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case transport, cache, credentials, cookies, hsts, codec, pipeline, middleware(String)
        }
        private let base: Base

        /// The transport: connecting, TLS, sending or receiving.
        public static let transport = Stage(base: .transport)
        /// The cache store.
        public static let cache = Stage(base: .cache)
        /// The credential store or the authentication loop.
        public static let credentials = Stage(base: .credentials)
        /// The cookie store.
        public static let cookies = Stage(base: .cookies)
        /// The HSTS store (``HSTSStore``).
        public static let hsts = Stage(base: .hsts)
        /// A content codec (compression).
        public static let codec = Stage(base: .codec)
        /// The pipeline's own rules (redirects, request building).
        public static let pipeline = Stage(base: .pipeline)
        /// A middleware, by name.
        /// - Parameter name: The middleware's name.
        /// - Returns: The stage.
        public static func middleware(_ name: String) -> Stage { Stage(base: .middleware(name)) }

        /// A short name, such as `transport` or `middleware(Gzip)`.
        public var description: String {
            switch base {
            case .transport: "transport"
            case .cache: "cache"
            case .credentials: "credentials"
            case .cookies: "cookies"
            case .hsts: "hsts"
            case .codec: "codec"
            case .pipeline: "pipeline"
            case .middleware(let name): "middleware(\(name))"
            }
        }
    }
}
