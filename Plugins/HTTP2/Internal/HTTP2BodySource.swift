import CNGHTTP2
import HTTPCore
import Synchronization

/// A response body read from an HTTP/2 stream: each chunk the reader takes is acknowledged to the server
/// (`WINDOW_UPDATE`), so a slow reader slows the server down instead of filling memory.
///
/// With a bandwidth limiter (the `Throttle` plug-in) each read asks for a grant first and takes at most that many
/// bytes, then settles what it took: the stream's window opens only as fast as the limiter grants, so the server
/// sends no faster, and every body byte counts in the limiter's budget and average, per stream and shared.
// The stream is touched only with the session's lock held; the rest is immutable.
final class HTTP2BodySource: ResponseBodySource, @unchecked Sendable {
    private let session: HTTP2Session
    private let stream: HTTP2Stream
    private let context: RequestContext
    private let expected: Int64?
    private let received = Mutex<Int64>(0)

    init(session: HTTP2Session, stream: HTTP2Stream, context: RequestContext, expected: Int64?) {
        self.session = session
        self.stream = stream
        self.context = context
        self.expected = expected
    }

    /// The most bytes asked of the limiter per read.
    private static let grantSize = 64 * 1024

    func next() async throws -> [UInt8]? {
        guard let limiter = context.bandwidth else { return try await take(upTo: .max) }
        let transfer = context.bandwidthTransfer(.download)
        let granted = max(1, try await limiter.grant(upTo: Self.grantSize, for: transfer))
        do {
            let chunk = try await take(upTo: granted)
            limiter.settle(used: chunk?.count ?? 0, granted: granted, for: transfer)
            return chunk
        } catch {
            limiter.settle(used: 0, granted: granted, for: transfer)
            throw error
        }
    }

    /// The next chunk, at most `limit` bytes of it.
    private func take(upTo limit: Int) async throws -> [UInt8]? {
        let stream = self.stream
        let chunk = try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (waiter: UnsafeContinuation<[UInt8]?, any Error>) in
                // A chunk taken may bring a WINDOW_UPDATE due: the driver is woken only then.
                let ready: Result<[UInt8]?, any Error>? = session.lockedWakingWriter { connection in
                    if stream.discarded { return .success(nil) }
                    if let chunk = stream.popChunk(upTo: limit) {
                        connection.consume(chunk.count, of: stream)
                        return .success(chunk)
                    }
                    if let failure = stream.failure { return .failure(failure) }
                    if stream.remoteEnded || stream.isHead { return .success(nil) }
                    stream.lastActivity = .now  // the timeout counts from when the reader starts waiting
                    stream.bodyWaiter = waiter
                    stream.bodyWaiterLimit = limit
                    return nil
                }
                if let ready { waiter.resume(with: ready) }
            }
        } onCancel: {
            session.reset(stream, with: CancellationError())
        }
        if let chunk, context.progress != nil {
            let total = received.withLock { total in
                total += Int64(chunk.count)
                return total
            }
            context.progress?.receive(ProgressEvent(requestID: context.requestID, direction: .download,
                                                   completedBytes: total, expectedBytes: expected))
        }
        return chunk
    }

    /// The trailer section (a `HEADERS` frame after the `DATA`), once the stream ended and every chunk was read.
    var trailers: HTTPFields? {
        session.locked { _ in
            stream.remoteEnded && stream.chunkIndex >= stream.chunks.count && stream.failure == nil
                ? stream.trailers : nil
        }
    }

    func discard() async {
        let stream = self.stream
        session.lockedWakingWriter { connection in
            guard !stream.discarded else { return }
            stream.discarded = true
            var unread = 0
            while let chunk = stream.popChunk() { unread += chunk.count }
            connection.consume(unread, of: stream)
            guard !stream.isClosed, !stream.remoteEnded, let session = connection.session else { return }
            _ = nghttp2_submit_rst_stream(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.id, NGHTTP2_CANCEL.rawValue)
        }
    }
}
