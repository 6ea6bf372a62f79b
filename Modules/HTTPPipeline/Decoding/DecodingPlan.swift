import HTTPCore

/// How a final response's body is decoded: decided here, once, for every way a body is read (streamed to the
/// caller or a data callback, collected in memory, saved to a file).
///
/// ASIHTTPRequest's rule (`shouldWaitToInflateCompressedResponses`, ``RequestOptions/inflatesWhenComplete``):
/// by default a compressed body is kept as sent and inflated once complete; otherwise it is inflated as it
/// arrives. Streams and data callbacks have no "complete", so waiting means handing the compressed bytes over.
/// A resumable download always waits: its compressed bytes are the only state a later `Range` can continue.
enum DecodingPlan {
    /// The body is used as it came: nothing to decode, or the reader wants the compressed bytes.
    case none
    /// Chunks are inflated as they arrive; the compressed bytes are not kept.
    case asItArrives(HTTPFields)
    /// The compressed body is kept and inflated once complete.
    case whenComplete(HTTPFields)

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
        switch reader {
        case .stream: return waits ? .none : .asItArrives(fields)
        case .memory: return waits ? .whenComplete(fields) : .asItArrives(fields)
        case .file(_, let resumable): return waits || resumable ? .whenComplete(fields) : .asItArrives(fields)
        }
    }

    /// `body` as the reader should see it while it streams: inflated when the plan says so, as it came otherwise.
    /// - Parameters:
    ///   - body: The response body.
    ///   - codecs: The client's content codecs.
    /// - Returns: The body to read.
    /// - Throws: ``ClientError`` with stage `codec` when no decoder can be made.
    func streaming(_ body: ResponseBody, codecs: [any ContentCodec]) throws -> ResponseBody {
        guard case .asItArrives(let fields) = self else { return body }
        return body.decoded(with: try codecStaged { try ContentCoding.makeDecoder(for: fields, codecs: codecs) })
    }
}
