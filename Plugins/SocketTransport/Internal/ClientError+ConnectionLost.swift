import HTTPCore

extension ClientError {
    /// Whether the connection ended under an exchange before a whole answer could be read: the server closed it
    /// without a response byte (``ClientError/Code/emptyResponse``), it broke while the request was sent or the
    /// answer awaited (``ClientError/Code/sendFailed``, ``ClientError/Code/receiveFailed``), or the transport
    /// lost it (``ClientError/Code/connectFailed``, such as a shutdown).
    ///
    /// The one predicate for "closed before any answer": on a reused connection that had received no response
    /// byte it is the keep-alive race (the server closed the idle connection as the request went out), and an
    /// idempotent request is sent again on a new connection (``TransportCore/send(_:context:failsOver:)``); a
    /// write that fails so is held while the answer is still read (``HTTP1Exchange``).
    var isConnectionLost: Bool {
        code == .emptyResponse || code == .sendFailed || code == .receiveFailed || code == .connectFailed
    }
}
