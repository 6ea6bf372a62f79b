extension ClientError {
    /// A stable error code. New codes may be added; switch with a `default`.
    ///
    /// Each code maps to the ASIHTTPRequest error type it replaces (``asiErrorType``), so code ported from
    /// ASIHTTPRequest can keep its checks.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case connectFailed, nameResolutionFailed, timedOut, authenticationFailed, cancelled, invalidRequest
            case tooManyRedirects, storageFailed, protocolViolation, tlsHandshakeFailed, certificateInvalid
            case compressionFailed, invalidConfiguration, internalError, middlewareFailed, uploadFailed
            case publicKeyPinMismatch
            case emptyResponse, incompleteBody, sendFailed, receiveFailed, streamReset
        }
        private let base: Base

        /// The connection could not be made: refused, unreachable, or a proxy on the way could not open it
        /// (ASI type 1). A connection that broke once open is ``sendFailed`` or ``receiveFailed``; one the client
        /// itself closed under an exchange (the transport shut down) is this code too.
        public static let connectFailed = Code(base: .connectFailed)
        /// The connection broke while the request was being sent (a broken pipe, a reset) and no answer could be
        /// read afterwards (ASI type 1). A server that answers early and then resets is read first; a reset seen
        /// while the answer is awaited is ``receiveFailed``. A reused keep-alive connection that fails so before any
        /// response byte is retried on a new one first, for idempotent requests.
        public static let sendFailed = Code(base: .sendFailed)
        /// The connection broke while the response was awaited or read: reset by the server (`ECONNRESET`) or
        /// another receive error after the request went out (ASI type 1). The bytes that arrived were delivered;
        /// a clean close is ``emptyResponse`` or ``incompleteBody`` instead. A reused keep-alive connection that
        /// fails so before any response byte is retried on a new one first, for idempotent requests.
        public static let receiveFailed = Code(base: .receiveFailed)
        /// The server reset the request's stream on a multiplexed connection (HTTP/2 `RST_STREAM`, or a stream above
        /// a `GOAWAY`'s last stream id that cannot be sent again): that request fails alone, the connection and its
        /// other streams go on (ASI type 1; curl's exit code 92).
        public static let streamReset = Code(base: .streamReset)
        /// The server closed the connection without sending a single byte of a response (ASI type 1). A reused
        /// keep-alive connection that does this is retried on a new one first, for idempotent requests.
        public static let emptyResponse = Code(base: .emptyResponse)
        /// The connection closed before the body was complete: fewer bytes than `Content-Length` announced, or a
        /// chunked body or its trailers cut off (ASI type 1). The bytes that arrived were delivered; none is
        /// taken for the whole body.
        public static let incompleteBody = Code(base: .incompleteBody)
        /// The host name could not be resolved (ASI type 1).
        public static let nameResolutionFailed = Code(base: .nameResolutionFailed)
        /// Nothing was sent or received for longer than the request's timeout (ASI type 2).
        public static let timedOut = Code(base: .timedOut)
        /// The server wanted credentials that were missing or rejected (ASI type 3).
        public static let authenticationFailed = Code(base: .authenticationFailed)
        /// The request was cancelled; used by the callback and blocking styles (ASI type 4).
        public static let cancelled = Code(base: .cancelled)
        /// The request could not be built, for example a URL without a host (ASI types 5 and 6).
        public static let invalidRequest = Code(base: .invalidRequest)
        /// More redirects than the request allows (ASI type 9).
        public static let tooManyRedirects = Code(base: .tooManyRedirects)
        /// A file could not be read, written, moved or removed (ASI type 8).
        public static let storageFailed = Code(base: .storageFailed)
        /// The peer broke the HTTP protocol: a malformed head, a bad chunk size, conflicting lengths.
        public static let protocolViolation = Code(base: .protocolViolation)
        /// The TLS handshake failed for a reason other than the certificate (ASI type 1, "SSL problem").
        public static let tlsHandshakeFailed = Code(base: .tlsHandshakeFailed)
        /// The server's certificate was not trusted or did not match the host name (ASI type 1, "SSL problem").
        public static let certificateInvalid = Code(base: .certificateInvalid)
        /// The server's certificate was valid, but its public key matched none of the pinned keys
        /// (``TLSOptions/pinnedPublicKeys``; curl's `--pinnedpubkey`, exit 90). Nothing was sent on the connection
        /// (ASI type 1, "SSL problem": ASIHTTPRequest had no pinning).
        public static let publicKeyPinMismatch = Code(base: .publicKeyPinMismatch)
        /// Compressing or decompressing a body failed (ASI type 11).
        public static let compressionFailed = Code(base: .compressionFailed)
        /// The request body could not be sent whole: the request had to be sent again (a challenge, a redirect or
        /// a retry) but its body is a one-time stream already sent, or the body's length is unknown and the server
        /// speaks HTTP/1.0, which cannot receive chunked bodies (ASI type 6). Nothing was sent short.
        public static let uploadFailed = Code(base: .uploadFailed)
        /// A plugin or request option was configured in a way that cannot work.
        public static let invalidConfiguration = Code(base: .invalidConfiguration)
        /// A bug in the framework or a plugin (ASI type 10).
        public static let internalError = Code(base: .internalError)
        /// A ``Middleware`` threw an error of its own, not a ``ClientError`` (ASI type 10: ASIHTTPRequest had no
        /// middleware). The error's ``ClientError/stage`` names the middleware and ``ClientError/underlying``
        /// holds what it threw.
        public static let middlewareFailed = Code(base: .middlewareFailed)

        /// The code's stable name, such as `timedOut`.
        public var description: String { base.rawValue }

        /// The matching `ASINetworkErrorType` number from ASIHTTPRequest.
        public var asiErrorType: Int {
            switch base {
            case .connectFailed, .nameResolutionFailed, .tlsHandshakeFailed, .certificateInvalid, .protocolViolation,
                .emptyResponse, .incompleteBody, .sendFailed, .receiveFailed, .publicKeyPinMismatch, .streamReset:
                1
            case .timedOut: 2
            case .authenticationFailed: 3
            case .cancelled: 4
            case .invalidRequest: 5
            case .invalidConfiguration, .uploadFailed: 6
            case .storageFailed: 8
            case .tooManyRedirects: 9
            case .internalError, .middlewareFailed: 10
            case .compressionFailed: 11
            }
        }
    }
}
