import HTTPCore
import Synchronization

/// Inflates a response body as it is read (`shouldWaitToInflateCompressedResponses = NO`): chunks from the base
/// are decoded as they come, and the decoder's end check runs when the base ends, so a truncated or corrupt body
/// throws ``ClientError/Code/compressionFailed`` instead of ending early.
///
/// A large chunk is fed to the decoder a slice of ``sliceSize`` bytes at a time, one decoded piece per `next()`, so
/// the decoder's output (about ten times its input for text) stays in the CPU's cache on its way to the reader
/// instead of passing through memory as one piece of megabytes. A ``BoundedContentDecoder`` (brotli, zstd) is
/// asked for at most ``ContentCoding/pieceSize`` decoded bytes per `next()` instead, because a slice of their input
/// can still decode to megabytes.
final class DecodingBodySource: ResponseBodySource {
    /// The most compressed bytes decoded per `next()`.
    static let sliceSize = 16 * 1024

    private struct State {
        /// The decoder, or nil once finished.
        var decoder: (any ContentDecoder)?
        /// The same decoder when it is a ``BoundedContentDecoder``, cast once here rather than per read; nil once
        /// finished.
        var bounded: (any BoundedContentDecoder)?
        /// Compressed bytes read from the base and not yet decoded.
        var pending: ArraySlice<UInt8> = []
        /// Whether a bounded decoder filled its last piece, so it may hold decoded bytes without more input.
        var mayHoldOutput = false

        init(decoder: any ContentDecoder) {
            self.decoder = decoder
            bounded = decoder as? any BoundedContentDecoder
        }
    }

    private let base: any ResponseBodySource
    // Used under the lock by one reader at a time.
    private let state: Mutex<State>

    /// - Parameters:
    ///   - base: The encoded body.
    ///   - decoder: Its decoder, used by this source alone.
    ///   - encodedLength: The encoded body's length when the response gave it, which a bounded decoder may allocate
    ///     by (``BoundedContentDecoder/prepare(forEncodedLength:)``).
    init(base: any ResponseBodySource, decoder: sending any ContentDecoder, encodedLength: Int64? = nil) {
        self.base = base
        self.state = Mutex(State(decoder: decoder))
        if let encodedLength { state.withLock { $0.bounded?.prepare(forEncodedLength: encodedLength) } }
    }

    /// The base's trailers: a content coding covers the body, not the fields after it.
    var trailers: HTTPFields? { base.trailers }

    func next() async throws -> [UInt8]? {
        do {
            return try await nextDecoded()
        } catch let error as ClientError where error.stage == .codec {
            // A body that does not decode is given up: its connection is freed and a cache writer is aborted.
            await discard()
            throw error
        }
    }

    private func nextDecoded() async throws -> [UInt8]? {
        while true {
            let decoded = try codecStaged {
                try state.withLock { state -> [UInt8]? in
                    guard !state.pending.isEmpty || state.mayHoldOutput else { return nil }
                    if let bounded = state.bounded {
                        return try ContentCoding.nextPiece(
                            from: &state.pending, mayHoldOutput: &state.mayHoldOutput, bounded)
                    }
                    guard let decoder = state.decoder else {
                        state.pending = []
                        state.mayHoldOutput = false
                        return []
                    }
                    let slice = state.pending.prefix(Self.sliceSize)
                    state.pending = state.pending.dropFirst(slice.count)
                    return try decoder.decode(Array(slice))
                }
            }
            if let decoded {
                if !decoded.isEmpty { return decoded }
                continue
            }
            guard let chunk = try await base.next() else {
                let rest = try codecStaged {
                    try state.withLock { state -> [UInt8] in
                        defer {
                            state.decoder = nil
                            state.bounded = nil
                        }
                        return try state.decoder?.finish() ?? []
                    }
                }
                return rest.isEmpty ? nil : rest
            }
            state.withLock { $0.pending = chunk[...] }
        }
    }

    func discard() async {
        state.withLock { state in
            state.decoder = nil
            state.bounded = nil
            state.pending = []
            state.mayHoldOutput = false
        }
        await base.discard()
    }
}

/// Runs a codec call and names ``ClientError/Stage/codec`` in its errors, where no stage is set yet.
func codecStaged<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch var error as ClientError {
        if error.stage == nil { error.stage = .codec }
        throw error
    } catch {
        throw ClientError(.compressionFailed, stage: .codec, message: "Content coding failed", underlying: error)
    }
}

extension ResponseBody {
    /// The body decoded with `decoder` as it is read; the decoded length is unknown, the encoded one is the
    /// decoder's to know.
    func decoded(with decoder: sending any ContentDecoder) -> ResponseBody {
        ResponseBody(
            expectedLength: nil,
            source: DecodingBodySource(base: source, decoder: decoder, encodedLength: expectedLength))
    }
}
