public import FoundationEssentials
public import HTTPCore

/// The callbacks of a request started with ``Client/start(_:callbacks:on:)`` (ASIHTTPRequest's delegate
/// methods and blocks).
///
/// Each runs on the executor given to `start`, in this order: ``started``, then ``receivedResponseHead`` for
/// every response (redirect hops and 401 challenges included) with ``willRedirect`` after each redirect,
/// ``receivedData`` for each chunk of the final body, then exactly one of ``finished`` or ``failed``.
public struct RequestCallbacks: Sendable {
    /// The request is about to be sent for the first time.
    public var started: (@Sendable (Request) -> Void)?
    /// A response head arrived.
    public var receivedResponseHead: (@Sendable (ResponseHead) -> Void)?
    /// A redirect is being followed to the URL.
    public var willRedirect: (@Sendable (URL) -> Void)?
    /// A chunk of the final body arrived. When set, the body is handed over and not kept: the finished
    /// response's `body` is empty (ASIHTTPRequest's `request:didReceiveData:`).
    public var receivedData: (@Sendable ([UInt8]) -> Void)?
    /// The request finished (an HTTP error status counts as finished).
    public var finished: (@Sendable (ClientResponse) -> Void)?
    /// The request failed, was cancelled (``ClientError/Code/cancelled``) or timed out.
    public var failed: (@Sendable (ClientError) -> Void)?

    /// Creates callbacks; pass only the ones you need.
    /// - Parameters:
    ///   - started: The request is about to be sent.
    ///   - receivedResponseHead: A response head arrived.
    ///   - willRedirect: A redirect is being followed.
    ///   - receivedData: A body chunk arrived (the body is then not kept).
    ///   - finished: The request finished.
    ///   - failed: The request failed.
    public init(
        started: (@Sendable (Request) -> Void)? = nil,
        receivedResponseHead: (@Sendable (ResponseHead) -> Void)? = nil,
        willRedirect: (@Sendable (URL) -> Void)? = nil,
        receivedData: (@Sendable ([UInt8]) -> Void)? = nil,
        finished: (@Sendable (ClientResponse) -> Void)? = nil,
        failed: (@Sendable (ClientError) -> Void)? = nil
    ) {
        self.started = started
        self.receivedResponseHead = receivedResponseHead
        self.willRedirect = willRedirect
        self.receivedData = receivedData
        self.finished = finished
        self.failed = failed
    }
}
