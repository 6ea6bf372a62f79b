public import FoundationEssentials
public import HTTPCore

/// The callbacks of a ``RequestQueue`` (ASINetworkQueue's delegate selectors).
///
/// They run on the queue's executor. For each request, its own ``RequestCallbacks`` run first, then the queue's
/// (ASIHTTPRequest's order: delegate, then block, then queue; here one closure per event stands for both the
/// delegate and the block). ``queueFinished`` runs after the last request's callbacks.
public struct QueueCallbacks: Sendable {
    /// A request is about to be sent (`requestDidStartSelector`). Gets the request as it was added.
    public var requestStarted: (@Sendable (Request) -> Void)?
    /// A request received a response head (`requestDidReceiveResponseHeadersSelector`), redirects included.
    public var receivedResponseHead: (@Sendable (Request, ResponseHead) -> Void)?
    /// A request follows a redirect to the URL (`requestWillRedirectSelector`).
    public var requestWillRedirect: (@Sendable (Request, URL) -> Void)?
    /// A request finished (`requestDidFinishSelector`); an HTTP error status counts as finished.
    public var requestFinished: (@Sendable (Request, ClientResponse) -> Void)?
    /// A request failed or was cancelled (`requestDidFailSelector`).
    public var requestFailed: (@Sendable (Request, ClientError) -> Void)?
    /// Every request added so far has finished or failed (`queueDidFinishSelector`). Called once per drain:
    /// again if requests are added later and finish.
    public var queueFinished: (@Sendable () -> Void)?

    /// Creates callbacks; pass only the ones you need.
    /// - Parameters:
    ///   - requestStarted: A request is about to be sent.
    ///   - receivedResponseHead: A request received a response head.
    ///   - requestWillRedirect: A request follows a redirect.
    ///   - requestFinished: A request finished.
    ///   - requestFailed: A request failed.
    ///   - queueFinished: The queue drained.
    public init(
        requestStarted: (@Sendable (Request) -> Void)? = nil,
        receivedResponseHead: (@Sendable (Request, ResponseHead) -> Void)? = nil,
        requestWillRedirect: (@Sendable (Request, URL) -> Void)? = nil,
        requestFinished: (@Sendable (Request, ClientResponse) -> Void)? = nil,
        requestFailed: (@Sendable (Request, ClientError) -> Void)? = nil,
        queueFinished: (@Sendable () -> Void)? = nil
    ) {
        self.requestStarted = requestStarted
        self.receivedResponseHead = receivedResponseHead
        self.requestWillRedirect = requestWillRedirect
        self.requestFinished = requestFinished
        self.requestFailed = requestFailed
        self.queueFinished = queueFinished
    }
}
