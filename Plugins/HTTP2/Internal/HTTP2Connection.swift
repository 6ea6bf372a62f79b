import CNGHTTP2
import HTTPCore

/// The nghttp2 session of one connection and its streams. Every call into nghttp2, and so every callback, runs
/// with ``HTTP2Session``'s lock held; callbacks find this object through nghttp2's user data. Tasks to resume are
/// queued in ``actions`` and resumed after unlocking (never while holding the lock).
final class HTTP2Connection: @unchecked Sendable {  // touched only with HTTP2Session's lock held
    /// The `nghttp2_session*`; `nil` after ``free()``.
    private(set) var session: OpaquePointer?
    let configuration: HTTP2Protocol.Configuration
    var streams: [Int32: HTTP2Stream] = [:]
    /// Streams promised to requests by `reserveStream()` and not submitted yet.
    var reserved = 0
    /// The streams the server takes at once (its `SETTINGS_MAX_CONCURRENT_STREAMS`).
    var maxStreams: Int
    /// A `GOAWAY` arrived: no new streams.
    var goingAway = false
    /// The server's last processed stream id from its `GOAWAY`.
    var lastStreamID = Int32.max
    /// The driver stopped: nothing more is read or written.
    var isClosed = false
    /// When bytes last arrived from the server (the driver sets it after each read).
    var lastReceived = ContinuousClock.now
    /// When the connection last had a stream end or a reservation given back: with no stream open since, it has
    /// been idle from then on (``HTTPCore/ConnectionStream/idleTimeout``).
    var lastStreamEnded = ContinuousClock.now
    /// When an idle `PING` was sent and no frame has arrived since; `nil` when none is outstanding.
    var pingSentAt: ContinuousClock.Instant?
    /// Final response heads received on the connection so far: a request sent after one went out on a connection
    /// known to work, and is sent again elsewhere when the connection then dies before any answer to it.
    var headsReceived = 0
    /// Set by the driver while a burst of reads goes on (its last read filled the buffer, so more bytes wait in the
    /// socket): waiting body readers are woken when the burst ends, not for every `DATA` frame.
    var defersBodyWakeups = false
    /// Streams whose waiting reader has bytes held back until the burst ends.
    var deferredReaders: [HTTP2Stream] = []
    /// The most bytes held back for one waiting reader before it is woken anyway.
    static let deferredWakeUpBytes = 256 * 1024
    /// Continuations to resume (and the capacity handler to call) once the lock is released.
    var actions: [Action] = []

    /// What to do after unlocking.
    enum Action {
        case resumeHead(UnsafeContinuation<Void, any Error>, (any Error)?)
        case resumeBody(UnsafeContinuation<[UInt8]?, any Error>, Result<[UInt8]?, any Error>)
        case resumeUpload(UnsafeContinuation<UploadProgress, any Error>, UploadProgress)
        case capacityChanged
    }

    /// What an upload step found.
    enum UploadProgress {
        /// The chunk is buffered.
        case buffered
        /// The buffer was full and has room now: try again.
        case roomFreed
        /// The stream is closed: stop uploading (the response or the error says why).
        case stopped
    }

    init(configuration: HTTP2Protocol.Configuration) throws {
        self.configuration = configuration
        maxStreams = configuration.assumedMaxConcurrentStreams
    }

    /// Creates the nghttp2 session with this object as its user data and queues the client's SETTINGS and the
    /// connection window's growth. Called once, right after `init`, at the object's final address.
    func start() throws {
        var callbacks: OpaquePointer?
        var options: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, nghttp2_option_new(&options) == 0 else {
            throw ClientError(.internalError, stage: .transport, message: "nghttp2 could not allocate a session")
        }
        defer {
            nghttp2_session_callbacks_del(callbacks)
            nghttp2_option_del(options)
        }
        HTTP2Callbacks.install(on: callbacks)
        // Windows are acknowledged as the reader takes the bytes (backpressure), not as they arrive.
        nghttp2_option_set_no_auto_window_update(options, 1)
        nghttp2_option_set_peer_max_concurrent_streams(options, UInt32(configuration.assumedMaxConcurrentStreams))
        nghttp2_option_set_max_continuations(options, 8)
        nghttp2_option_set_max_settings(options, 32)
        // No priority tree (RFC 9113 deprecates it): closed streams are freed at once, not kept for it.
        nghttp2_option_set_no_closed_streams(options, 1)
        var made: OpaquePointer?
        let user = Unmanaged.passUnretained(self).toOpaque()
        guard nghttp2_session_client_new2(&made, callbacks, user, options) == 0, let made else {
            throw ClientError(.internalError, stage: .transport, message: "nghttp2 could not allocate a session")
        }
        session = made
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: 100),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue),
                                   value: UInt32(configuration.initialStreamWindowSize)),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue),
                                   value: UInt32(configuration.maxHeaderListSize)),
        ]
        guard nghttp2_submit_settings(made, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count) == 0,
            nghttp2_session_set_local_window_size(
                made, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Int32(configuration.connectionWindowSize)) == 0
        else {
            throw ClientError(.internalError, stage: .transport, message: "nghttp2 refused the client's settings")
        }
    }

    deinit {
        free()
    }

    /// Frees the nghttp2 session; idempotent.
    func free() {
        if let session { nghttp2_session_del(session) }
        session = nil
    }

    /// Whether nghttp2 has frames queued to send (the driver has writing to do).
    var wantsWrite: Bool {
        guard let session else { return false }
        return nghttp2_session_want_write(session) != 0
    }

    /// Whether a request may start a stream now.
    var hasRoom: Bool { !isClosed && !goingAway && streams.count + reserved < maxStreams }

    /// Acknowledges `count` bytes of `stream` read by its reader, and grows the stream's window once the reader has
    /// read half of it (doubling, up to ``HTTP2Protocol/Configuration/maxStreamWindowSize``).
    func consume(_ count: Int, of stream: HTTP2Stream) {
        guard let session, count > 0 else { return }
        _ = nghttp2_session_consume(session, stream.id, count)
        stream.readSinceGrowth += count
        guard !stream.isClosed, stream.window < configuration.maxStreamWindowSize,
            stream.readSinceGrowth >= stream.window / 2
        else { return }
        stream.window = min(stream.window * 2, configuration.maxStreamWindowSize)
        stream.readSinceGrowth = 0
        _ = nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.id,
                                                  Int32(stream.window))
    }

    /// Fails `stream` with `error` (the first error is kept) and queues the resumption of its waiters.
    func fail(_ stream: HTTP2Stream, with error: any Error) {
        if stream.failure == nil { stream.failure = error }
        let failure = stream.failure!
        if let waiter = stream.headWaiter {
            stream.headWaiter = nil
            actions.append(.resumeHead(waiter, failure))
        }
        if let waiter = stream.bodyWaiter {
            stream.bodyWaiter = nil
            actions.append(.resumeBody(waiter, .failure(failure)))
        }
        wakeUploader(stream, .stopped)
    }

    /// Queues the resumption of the stream's uploader, if one waits.
    func wakeUploader(_ stream: HTTP2Stream, _ progress: UploadProgress) {
        guard let waiter = stream.uploadWaiter else { return }
        stream.uploadWaiter = nil
        actions.append(.resumeUpload(waiter, progress))
    }

    /// Takes the queued actions.
    func takeActions() -> [Action] {
        guard !actions.isEmpty else { return [] }
        defer { actions.removeAll(keepingCapacity: true) }
        return actions
    }
}
