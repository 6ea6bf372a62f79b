import HTTPCore

/// How a final response's body is decoded: decided here, once, for every way a body is read (streamed to the
/// caller or a data callback, collected in memory, saved to a file).
///
/// ASIHTTPRequest's rule (`shouldWaitToInflateCompressedResponses`, ``RequestOptions/inflatesWhenComplete``):
/// by default a compressed body is kept as sent and inflated once complete; otherwise it is inflated as it
/// arrives. Streams and data callbacks have no "complete", so waiting means handing the compressed bytes over.
/// A resumable download always waits: its compressed bytes are the only state a later `Range` can continue.
///
/// The cache's decoding is part of the same decision. A cache entry keeps the decoded body, so a storable
/// compressed response is decoded for the store as it streams (``CachingBodySource``); a reader that decodes too
/// shares that decoding (``sharedWithCache(_:whenComplete:)``), so the body is inflated once. Only a download that
/// inflates its complete file decodes on its own: keeping a whole decoded file in memory for it would cost more
/// than the second pass.
enum DecodingPlan {
    /// The body is used as it came: nothing to decode, or the reader wants the compressed bytes.
    case none
    /// Chunks are inflated as they arrive; the compressed bytes are not kept.
    case asItArrives(HTTPFields)
    /// The compressed body is kept and inflated once complete.
    case whenComplete(HTTPFields)
    /// The cache decodes the body for its store, and the reader takes those decoded bytes: as they arrive, or
    /// (`whenComplete`) kept beside the body as sent until it is complete.
    case sharedWithCache(CachingBodySource, whenComplete: Bool)

    /// Who reads the body.
    enum Reader {
        /// ``Client/stream(_:)`` or a data callback: chunks are handed over as they come.
        case stream
        /// ``Client/send(_:)``: the body is collected in memory.
        case memory
        /// A download to a file; `partial` for a resumed `206` that completes the file, `resumable` when a later
        /// request may resume it.
        case file(partial: Bool, resumable: Bool)
    }

    /// The plan for `response` read by `reader` with the client's codecs.
    /// - Parameters:
    ///   - response: The final response.
    ///   - reader: Who reads the body.
    ///   - codecs: The client's content codecs.
    /// - Returns: The plan.
    static func plan(for response: StreamingResponse, reader: Reader, codecs: [any ContentCodec]) -> DecodingPlan {
        let request = response.info.finalRequest
        let partial: Bool
        if case .file(let isPartial, _) = reader { partial = isPartial } else { partial = false }
        guard ContentCoding.isDecodable(response.head, method: request.method, codecs: codecs, partial: partial)
        else { return .none }
        let fields = response.head.headerFields
        let waits = request.options.inflatesWhenComplete
        let store = response.storeDecoding
        switch reader {
        case .stream:
            if waits { return .none }
            return store.map { .sharedWithCache($0, whenComplete: false) } ?? .asItArrives(fields)
        case .memory:
            if let store { return .sharedWithCache(store, whenComplete: waits) }
            return waits ? .whenComplete(fields) : .asItArrives(fields)
        case .file(_, let resumable):
            if waits || resumable { return .whenComplete(fields) }
            return store.map { .sharedWithCache($0, whenComplete: false) } ?? .asItArrives(fields)
        }
    }

    /// `body` as the reader should see it while it streams: inflated when the plan says so, as it came otherwise.
    /// - Parameters:
    ///   - body: The response body.
    ///   - codecs: The client's content codecs.
    /// - Returns: The body to read.
    /// - Throws: ``ClientError`` with stage `codec` when no decoder can be made.
    func streaming(_ body: ResponseBody, codecs: [any ContentCodec]) throws -> ResponseBody {
        switch self {
        case .asItArrives(let fields):
            return body.decoded(with: try codecStaged { try ContentCoding.makeDecoder(for: fields, codecs: codecs) })
        case .sharedWithCache(let store, whenComplete: false):
            store.deliversDecoded()
            return ResponseBody(expectedLength: nil, source: body.source)
        case .none, .whenComplete, .sharedWithCache:
            return body
        }
    }
}
