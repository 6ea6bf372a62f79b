extension RequestOptions {
    /// Adds a sink to ``progress``, beside any sink already there.
    ///
    /// The first sink is stored as it is; a second one turns the slot into a ``FanOutProgressSink`` that calls
    /// them in the order they were added. So a request with one sink pays nothing for the fan-out.
    /// - Parameter sink: Receives this request's upload and download progress.
    public mutating func addProgressSink(_ sink: any ProgressSink) {
        progress = FanOutProgressSink.adding(sink, to: progress)
    }
}
