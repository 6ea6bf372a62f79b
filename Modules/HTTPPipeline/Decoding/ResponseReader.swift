import HTTPCore

/// Reads a final response's body the way the request asks: handed to a data callback, saved to a file, or
/// collected in memory, inflated at the end (the compressed bytes kept) or as it arrives.
struct ResponseReader {
    let client: Client
    let onData: (@Sendable ([UInt8]) -> Void)?

    func read(_ response: StreamingResponse) async throws -> ClientResponse {
        if let onData { return try await readStreaming(response, to: onData) }
        if let download = response.info.finalRequest.options.download {
            return try await readDownload(response, options: download)
        }
        let maxBodySize = client.configuration.maxBodySize
        let (plan, body) = try Self.inMemory(response, codecs: client.codecs, maxBodySize: maxBodySize)
        let raw: [UInt8]
        do {
            raw = try await body.collect(upTo: maxBodySize)
        } catch {
            throw labelled(error, .transport)
        }
        return try Self.finished(
            response, plan: plan, raw: raw, read: body, codecs: client.codecs, maxBodySize: maxBodySize)
    }

    // The steps below keep `read`'s async frame to what spans its one await on the default path (decision 0034):
    // the rarely taken readers are async functions of their own, and the work before and after the await is
    // synchronous and never inlined, so its temporaries (copies of the response's head and exchange info) stay on
    // the thread's stack.

    /// Hands each chunk to `onData` as it arrives and keeps none.
    @inline(never)
    private func readStreaming(
        _ response: StreamingResponse, to onData: @Sendable ([UInt8]) -> Void
    ) async throws -> ClientResponse {
        let codecs = client.codecs
        let body = try DecodingPlan.plan(for: response, reader: .stream, codecs: codecs)
            .streaming(response.body, codecs: codecs)
        try await staged(.transport) {
            for try await chunk in body { onData(chunk) }
        }
        return Self.response(response, body: [], trailersOf: body)
    }

    /// Writes the body to the request's download file.
    @inline(never)
    private func readDownload(_ response: StreamingResponse, options: DownloadOptions) async throws -> ClientResponse {
        let body = try await FileDownload(
            options: options, request: response.info.finalRequest, codecs: client.codecs,
            maxBodySize: client.configuration.maxBodySize
        ).receive(response)
        return Self.response(response, body: body, trailersOf: response.body)
    }

    /// How a body read into memory is decoded, and the body to collect.
    @inline(never)
    private static func inMemory(
        _ response: StreamingResponse, codecs: [any ContentCodec], maxBodySize: Int
    ) throws -> (DecodingPlan, ResponseBody) {
        let plan = DecodingPlan.plan(for: response, reader: .memory, codecs: codecs)
        if case .sharedWithCache(let store, whenComplete: true) = plan { store.keepsDecoded(upTo: maxBodySize) }
        return (plan, try plan.streaming(response.body, codecs: codecs))
    }

    /// The response around the collected body, decoded when the plan decodes once complete, with the trailers of
    /// `body`, the body that was read.
    @inline(never)
    private static func finished(
        _ response: StreamingResponse, plan: DecodingPlan, raw: [UInt8], read body: ResponseBody,
        codecs: [any ContentCodec], maxBodySize: Int
    ) throws -> ClientResponse {
        let decoded: [UInt8]
        switch plan {
        case .whenComplete(let fields):
            decoded = try codecStaged { try Self.inflate(raw, fields: fields, codecs: codecs, upTo: maxBodySize) }
        case .sharedWithCache(let store, whenComplete: true):
            decoded = try store.decodedBody()  // inflated once, as it went into the cache
        case .none, .asItArrives, .sharedWithCache:
            return Self.response(response, body: raw, trailersOf: body)
        }
        return Self.response(response, body: decoded, raw: raw, trailersOf: body)
    }

    /// The collected response: `body` (and `raw` as it was received, when it differs), and the trailers of the body
    /// read to its end. Synchronous and never inlined, so its temporaries stay out of the async frame of ``read(_:)``.
    @inline(never)
    private static func response(
        _ streamed: StreamingResponse, body: [UInt8], raw: [UInt8]? = nil, trailersOf read: ResponseBody
    ) -> ClientResponse {
        var response = ClientResponse(head: streamed.head, body: body, info: streamed.info)
        if let raw { response.rawBody = raw }
        response.trailers = read.trailers
        return response
    }

    /// The most compressed bytes inflated at once when a body is decoded after it is complete: the decoded size is
    /// checked after each piece, so a body that inflates past the limit stops within one piece's output.
    static let inflationPieceSize = 64 * 1024

    /// Decodes a complete body piece by piece, failing as soon as the output passes `maxBytes`.
    /// - Throws: ``ClientError`` with ``ClientError/Code/protocolViolation`` (stage `codec`) past `maxBytes`, or
    ///   what the codec throws.
    static func inflate(_ raw: [UInt8], fields: HTTPFields, codecs: [any ContentCodec], upTo maxBytes: Int) throws
        -> [UInt8]
    {
        let decoder = try ContentCoding.makeDecoder(for: fields, codecs: codecs)
        var decoded: [UInt8] = []
        var start = 0
        while true {
            let end = min(start + inflationPieceSize, raw.count)
            decoded += try start < end ? decoder.decode(Array(raw[start..<end])) : decoder.finish()
            guard decoded.count <= maxBytes else {
                throw ClientError(
                    .protocolViolation, stage: .codec, message: "Response body inflates to more than \(maxBytes) bytes")
            }
            if start >= end { return decoded }
            start = end
        }
    }
}
