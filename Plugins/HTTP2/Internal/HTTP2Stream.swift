import HTTPCore

/// One request's stream: its response head as it arrives, the body bytes not read yet, the upload buffer, and the
/// tasks waiting on each. Touched only with the session's lock held (``HTTP2Connection``), so a plain class.
final class HTTP2Stream: @unchecked Sendable {  // every field is touched with the session's lock held
    /// The stream id nghttp2 gave the request; 0 until submitted.
    var id: Int32 = 0
    /// Whether the request is a `HEAD` (its response has no body whatever `content-length` says).
    let isHead: Bool

    // The response head.
    var status: Int?
    var fields = HTTPFields()
    var trailers: HTTPFields?
    /// Header list bytes of the section being received, counted as RFC 9113 §6.5.2 does.
    var sectionSize = 0
    var headArrived = false
    var headWaiter: UnsafeContinuation<Void, any Error>?

    // The response body.
    var chunks: [[UInt8]] = []
    var chunkIndex = 0
    /// Body bytes received so far: a new chunk is reserved as large as these, up to ``maxChunkSize``.
    var bodyBytesReceived = 0
    var bodyWaiter: UnsafeContinuation<[UInt8]?, any Error>?
    /// `END_STREAM` arrived: nothing more comes from the server.
    var remoteEnded = false
    /// The body reader gave up the rest (``ResponseBodySource/discard()``).
    var discarded = false
    /// The current receive window and what was read since it last grew.
    var window: Int
    var readSinceGrowth = 0

    // The request body.
    var upload: [UInt8] = []
    var uploadOffset = 0
    var uploadEnded = false
    var uploadWaiter: UnsafeContinuation<HTTP2Connection.UploadProgress, any Error>?

    /// The request's inactivity timeout (``HTTPCore/RequestOptions/timeout``), `nil` for none, and when the stream
    /// last moved a byte or a frame; the session's watchdog fails a stream whose waiting reader saw nothing for
    /// longer.
    var timeout: Duration?
    var lastActivity = ContinuousClock.now
    /// The request's low-speed check (``HTTPCore/RequestOptions/lowSpeedLimit``), `nil` for none.
    var lowSpeed: HTTP2LowSpeedWindow?
    /// The most bytes the waiting body reader takes at once (its bandwidth grant); the rest stays buffered.
    var bodyWaiterLimit = Int.max
    /// Bytes that arrived for the waiting reader while its wake-up was held back, and whether the stream is in
    /// ``HTTP2Connection/deferredReaders``.
    var deferredBytes = 0
    var isDeferred = false

    /// Whether the request may be sent again on another connection when this one dies before any byte of its
    /// answer arrives: it is idempotent and went out on a connection that had already answered (the keep-alive
    /// race HTTP/1.1 retries too: the server closed the idle connection as the request went out).
    var retriesIfConnectionLost = false

    /// Closed by nghttp2 (both sides ended, or reset).
    var isClosed = false
    /// Why the stream failed, if it did: kept for every later wait.
    var failure: (any Error)?

    init(isHead: Bool, window: Int) {
        self.isHead = isHead
        self.window = window
    }

    /// Upload bytes buffered and not handed to nghttp2 yet.
    var pendingUpload: Int { upload.count - uploadOffset }

    /// Whether the request waits on the server: for its head, its body, or room for its upload.
    var waitsOnNetwork: Bool { headWaiter != nil || bodyWaiter != nil || uploadWaiter != nil }

    /// The most bytes of `DATA` gathered into one chunk for the reader.
    static let maxChunkSize = 64 * 1024

    /// Keeps body bytes for the reader. They go into the last chunk not taken yet while it has room, so the
    /// `DATA` frames of one socket read reach the reader as one chunk instead of one per frame (nginx sends 8 KiB
    /// frames: a chunk, a reader's turn and a write of it each). A new chunk is reserved as large as what the
    /// stream has received so far, at most ``maxChunkSize``: a small body costs one exact allocation, a large one
    /// grows to 64 KiB chunks. What is kept is bounded by the stream's window, as before.
    func appendBody(_ data: UnsafeBufferPointer<UInt8>) {
        defer { bodyBytesReceived += data.count }
        let last = chunks.count - 1
        if last >= chunkIndex, chunks[last].count + data.count <= min(chunks[last].capacity, Self.maxChunkSize) {
            chunks[last].append(contentsOf: data)
            return
        }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(max(data.count, min(Self.maxChunkSize, bodyBytesReceived)))
        chunk.append(contentsOf: data)
        chunks.append(chunk)
    }

    /// The next body chunk, at most `limit` bytes of it (the rest stays first in line), if one is buffered.
    func popChunk(upTo limit: Int) -> [UInt8]? {
        guard chunkIndex < chunks.count, chunks[chunkIndex].count > limit else { return popChunk() }
        let chunk = Array(chunks[chunkIndex][..<limit])
        chunks[chunkIndex].removeFirst(limit)
        return chunk
    }

    /// The next body chunk, if one is buffered.
    func popChunk() -> [UInt8]? {
        guard chunkIndex < chunks.count else { return nil }
        let chunk = chunks[chunkIndex]
        chunkIndex += 1
        if chunkIndex == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            chunkIndex = 0
        }
        return chunk
    }
}
