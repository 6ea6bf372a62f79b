import CNGHTTP2
import HTTPCore

extension HTTP2Session {
    /// How often the watchdog looks for streams whose reader waited longer than its request's timeout.
    static let watchdogInterval = Duration.milliseconds(250)

    /// Fails (and resets) every stream whose reader waits for its head or body and saw nothing for longer than its
    /// request's inactivity timeout, until the connection ends. Runs beside the driver, in ``run()``'s task group:
    /// one timer per connection instead of one per request.
    func watchStreams() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.watchdogInterval)
            let now = ContinuousClock.now
            let expired = locked { connection -> Bool in
                var expired = false
                for stream in connection.streams.values {
                    guard let timeout = stream.timeout, stream.headWaiter != nil || stream.bodyWaiter != nil,
                        stream.lastActivity + timeout < now
                    else { continue }
                    expired = true
                    if let session = connection.session {
                        _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.id,
                                                      NGHTTP2_CANCEL.rawValue)
                    }
                    connection.fail(stream, with: ClientError(
                        .timedOut, stage: .transport,
                        message: "Nothing was received on HTTP/2 stream \(stream.id) for \(timeout)"))
                }
                return expired
            }
            if expired { stream.wakeReader() }
        }
    }
}
