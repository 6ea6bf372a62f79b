import HTTPCore

/// The content-coding rules: what `Accept-Encoding` offers, which decoder a response needs, and how a request
/// body is compressed.
enum ContentCoding {
    /// `Accept-Encoding` for the client's codecs, for example `deflate, gzip`; `nil` without codecs.
    static func acceptEncoding(for codecs: [any ContentCodec]) -> String? {
        var seen: [String] = []
        for encoding in codecs.flatMap(\.encodings) where !seen.contains(encoding.lowercased()) {
            seen.append(encoding.lowercased())
        }
        return seen.isEmpty ? nil : seen.joined(separator: ", ")
    }

    /// Adds `Accept-Encoding` (unless the caller set one or the request refuses compressed responses).
    /// - Parameters:
    ///   - hop: The hop.
    ///   - accepted: The client's offer, ``acceptEncoding(for:)`` of its codecs, worked out once per client.
    static func addAcceptEncoding(to hop: inout Request, accepted: String?) {
        if hop.options.allowsCompressedResponse, hop.headerFields[.acceptEncoding] == nil, let accepted {
            hop.headerFields[.acceptEncoding] = accepted
        }
    }

    /// The codings a response's `Content-Encoding` lists, in the order applied, lower-cased, without `identity`;
    /// `x-gzip` reads as `gzip` (RFC 9110 §8.4.1.3).
    static func codings(in fields: HTTPFields) -> [String] {
        fields[values: .contentEncoding].flatMap { $0.split(separator: ",") }.compactMap { coding in
            let name = coding.trimmingOWS().lowercased()
            switch name {
            case "", "identity": return nil
            case "x-gzip": return "gzip"
            default: return name
            }
        }
    }

    /// The codec that handles a coding.
    static func codec(for coding: String, in codecs: [any ContentCodec]) -> (any ContentCodec)? {
        codecs.first { $0.encodings.contains { $0.lowercased() == coding } }
    }

    /// Whether the response's body needs decoding and every coding has a codec. Bodiless responses (`HEAD`,
    /// 204, 304), unknown codings and, unless `partial` is allowed, a 206 (a slice of a compressed stream, which
    /// cannot be inflated on its own) are passed through untouched.
    static func isDecodable(
        _ head: ResponseHead,
        method: HTTPRequest.Method,
        codecs: [any ContentCodec],
        partial: Bool = false
    ) -> Bool {
        guard method != .head, head.status.code != 204, head.status.code != 304 else { return false }
        guard partial || head.status.code != 206 else { return false }
        let codings = codings(in: head.headerFields)
        return !codings.isEmpty && codings.allSatisfy { codec(for: $0, in: codecs) != nil }
    }

    /// A decoder that undoes every coding of `fields`, last applied first. A single bounded decoder is told the
    /// body's `Content-Length` here, so every reader of the body (streaming, a file download, the cache's copy) lets
    /// it allocate for a large body (decision 0039).
    static func makeDecoder(for fields: HTTPFields, codecs: [any ContentCodec]) throws -> any ContentDecoder {
        var decoders: [any ContentDecoder] = []
        for coding in codings(in: fields).reversed() {
            guard let codec = codec(for: coding, in: codecs) else {
                throw ClientError(.compressionFailed, stage: .codec, message: "No codec for the coding \(coding)")
            }
            decoders.append(try codec.makeDecoder(for: coding))
        }
        guard decoders.count == 1 else { return ChainedDecoder(decoders) }
        if let bounded = decoders[0] as? any BoundedContentDecoder, let value = fields[.contentLength],
            let length = Int64(value), length >= 0
        {
            bounded.prepare(forEncodedLength: length)
        }
        return decoders[0]
    }
}

extension ContentCoding {
    /// The most decoded bytes handed on at once from a ``BoundedContentDecoder`` (brotli, zstd): small enough to
    /// stay in the CPU's cache and in the allocator's heap, where one 16 KiB chunk of text can decode to megabytes.
    static let pieceSize = 64 * 1024

    /// Decodes `chunk` and hands the bytes to `write`: in pieces of at most ``pieceSize`` bytes from a bounded
    /// decoder, in one piece from any other.
    /// - Parameters:
    ///   - chunk: Encoded bytes.
    ///   - decoder: The body's decoder.
    ///   - write: Takes each decoded piece, in order.
    /// - Throws: What the decoder or `write` throws; ``ClientError/Code/compressionFailed`` when a bounded decoder
    ///   neither uses input nor returns bytes.
    static func decode(
        _ chunk: [UInt8], with decoder: any ContentDecoder, into write: ([UInt8]) throws -> Void
    ) throws {
        guard let bounded = decoder as? any BoundedContentDecoder else {
            try write(decoder.decode(chunk))
            return
        }
        var rest = chunk[...]
        var mayHoldOutput = false
        while let piece = try nextPiece(from: &rest, mayHoldOutput: &mayHoldOutput, bounded) {
            if !piece.isEmpty { try write(piece) }
        }
    }

    /// One read from a bounded decoder: at most ``pieceSize`` decoded bytes from the start of `pending`, which loses
    /// the input the decoder used. The one step both the streaming reader and ``decode(_:with:into:)`` take.
    /// - Parameters:
    ///   - pending: Encoded bytes not decoded yet.
    ///   - mayHoldOutput: Whether the last read filled its piece, so the decoder may hold decoded bytes without more
    ///     input; kept up to date.
    ///   - decoder: The bounded decoder.
    /// - Returns: Decoded bytes; empty when the decoder used input without returning any (read again); `nil` when
    ///   it needs more input.
    /// - Throws: What the decoder throws; ``noProgress`` when it neither used input nor returned bytes.
    static func nextPiece(
        from pending: inout ArraySlice<UInt8>, mayHoldOutput: inout Bool, _ decoder: any BoundedContentDecoder
    ) throws -> [UInt8]? {
        guard !pending.isEmpty || mayHoldOutput else { return nil }
        let (output, used) = try pending.withUnsafeBytes { try decoder.decode($0, atMost: pieceSize) }
        pending = pending.dropFirst(used)
        mayHoldOutput = output.count == pieceSize
        if !output.isEmpty { return output }
        guard used > 0 || pending.isEmpty else { throw noProgress }
        return pending.isEmpty ? nil : []
    }

    /// A bounded decoder that neither used input nor returned bytes.
    static var noProgress: ClientError {
        ClientError(.compressionFailed, message: "The decoder made no progress on its input")
    }
}

/// Decoders applied one after another (for `Content-Encoding: deflate, gzip`).
final class ChainedDecoder: ContentDecoder {
    private let decoders: [any ContentDecoder]

    init(_ decoders: [any ContentDecoder]) {
        self.decoders = decoders
    }

    func decode(_ chunk: [UInt8]) throws -> [UInt8] {
        try decoders.reduce(chunk) { try $1.decode($0) }
    }

    func finish() throws -> [UInt8] {
        var carry: [UInt8] = []
        for decoder in decoders {
            carry = try decoder.decode(carry) + decoder.finish()
        }
        return carry
    }
}
