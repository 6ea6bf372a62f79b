import HTTPCore
import Synchronization

/// Compresses a request body with gzip (`shouldCompressRequestBody`) and adds `Content-Encoding: gzip`.
///
/// A body in memory is compressed in memory and keeps an exact length. A file or stream body is compressed while
/// it is sent, in constant memory: over HTTP/1.1 it goes out chunked; over HTTP/1.0, which has no chunked
/// bodies, a replayable body is compressed once beforehand only to count its length (zlib's output is the same
/// for the same input), so no temporary file is needed.
enum RequestBodyCompression {
    static func apply(to request: inout Request, codecs: [any ContentCodec]) async throws {
        guard request.options.compressesRequestBody, let body = request.body, body.length != 0 else { return }
        guard let codec = ContentCoding.codec(for: "gzip", in: codecs) else {
            throw ClientError(
                .invalidConfiguration, stage: .pipeline,
                message: "compressesRequestBody needs a client ContentCodec for gzip")
        }
        request.headerFields[.contentEncoding] = "gzip"
        if case .bytes(let bytes) = body.content {
            request.body = .bytes(
                try codecStaged {
                    let encoder = try codec.makeEncoder(for: "gzip")
                    return try encoder.encode(bytes) + encoder.finish()
                })
            return
        }
        let make: @Sendable () -> RequestBody.Chunks = {
            let source = EncodingChunkSource(upstream: body.makeChunks(), codec: codec)
            return RequestBody.Chunks { try await source.next() }
        }
        var length: Int64?
        if request.options.httpVersion == .http1_0 && body.isReplayable {
            length = 0
            for try await chunk in make() { length! += Int64(chunk.count) }
        }
        request.body = .stream(length: length, isReplayable: body.isReplayable, make)
    }
}

/// Pulls plain chunks from a body and hands out their gzip encoding.
final class EncodingChunkSource: Sendable {
    private let upstream: RequestBody.Chunks
    private let codec: any ContentCodec
    // The encoder (made on first use) and whether the stream has ended; one consumer at a time.
    private let state = Mutex<(encoder: (any ContentEncoder)?, done: Bool)>((nil, false))

    init(upstream: RequestBody.Chunks, codec: any ContentCodec) {
        self.upstream = upstream
        self.codec = codec
    }

    func next() async throws -> [UInt8]? {
        while true {
            if state.withLock({ $0.done }) { return nil }
            // A Chunks iterator only calls the sequence's shared "next" function, so a fresh one continues
            // where the last stopped.
            var iterator = upstream.makeAsyncIterator()
            let chunk = try await iterator.next()
            let encoded = try codecStaged {
                try state.withLock { state -> [UInt8] in
                    if state.encoder == nil { state.encoder = try codec.makeEncoder(for: "gzip") }
                    guard let chunk else {
                        state.done = true
                        return try state.encoder!.finish()
                    }
                    return try state.encoder!.encode(chunk)
                }
            }
            if !encoded.isEmpty { return encoded }
        }
    }
}
