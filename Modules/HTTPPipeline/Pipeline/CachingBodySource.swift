import HTTPCore
import Synchronization

/// Passes a body through and writes each chunk to a cache writer as it is read; commits at the end of the body.
///
/// Nothing is buffered here: the store decides how much it keeps and may decline at any chunk. With a decoder the
/// store gets the decoded bytes (the entry keeps the body without its content coding) while the reader still gets
/// the bytes as sent, which it decodes, or not, the way its request asks. The writer is aborted when the body fails
/// (cancellation included), when it is given up with `discard()`, when the store declines the entry, when a write
/// fails, or when the body does not decode; a body dropped without either never commits, so the store shows
/// nothing of it.
///
/// A body is inflated once: when the reader decodes too (``DecodingPlan/sharedWithCache(_:whenComplete:)``), it
/// takes this source's decoding instead of its own, before the first chunk is read — the decoded chunks as they
/// arrive (``deliversDecoded()``), or the decoded bytes kept for the end beside the chunks as sent
/// (``keepsDecoded(upTo:)`` and ``decodedBody()``).
final class CachingBodySource: ResponseBodySource {
    fileprivate struct State {
        /// Where the chunks come from; the reader's decoding replaces it before the first read.
        var base: any ResponseBodySource
        /// The writer, while it takes chunks and is not in use by a write.
        var writer: (any CacheEntryWriter)?
        /// Undoes the body's content coding for the store; `nil` when the store keeps the bytes as sent.
        var decoder: (any ContentDecoder)?
        /// Whether the decoder got any byte; an empty body (a 204) has no coding to finish.
        var hasDecoded = false
        /// Set by `discard()`; a write in flight then aborts instead of putting the writer back.
        var isDiscarded = false
        /// The decoded bytes kept for a reader that inflates once the body is complete; `nil` when none is.
        var kept: [UInt8]?
        /// The most decoded bytes kept.
        var keptLimit = 0
        /// Why the kept bytes are not the decoded body: it does not decode, or it inflates past the limit.
        var keptFailure: ClientError?
    }

    private let state: Mutex<State>
    /// Whether the store gets the body decoded, so that a reader that decodes can share the work.
    let decodes: Bool

    init(base: any ResponseBodySource, writer: any CacheEntryWriter, decoder: sending (any ContentDecoder)? = nil) {
        self.decodes = decoder != nil
        self.state = Mutex(State(base: base, writer: writer, decoder: decoder))
    }

    /// Hands the reader the decoded chunks instead of the chunks as sent: the decoder moves under this source, and
    /// the store takes what it yields. Call before the first ``next()``.
    func deliversDecoded() {
        guard let decoder = state.withLock({ $0.decoder.take() }) else { return }
        let decoding = DecodingBodySource(base: state.withLock { $0.base }, decoder: decoder)
        state.withLock { $0.base = decoding }
    }

    /// Keeps up to `maxBytes` of the bytes decoded for the store, for ``decodedBody()``; the chunks read stay as
    /// sent, and decoding goes on after the store declines the entry. Call before the first ``next()``.
    func keepsDecoded(upTo maxBytes: Int) {
        state.withLock { state in
            state.kept = []
            state.keptLimit = maxBytes
        }
    }

    /// The decoded body, once the body was read to its end with ``keepsDecoded(upTo:)``.
    /// - Throws: ``ClientError`` (stage `codec`) as inflating the complete body would: with
    ///   ``ClientError/Code/compressionFailed`` when it does not decode, ``ClientError/Code/protocolViolation`` when
    ///   it inflates past the limit.
    func decodedBody() throws -> [UInt8] {
        try state.withLock { state in
            if let failure = state.keptFailure { throw failure }
            return state.kept ?? []
        }
    }

    /// The base's trailers (they are not stored with the entry: a cached body has none).
    var trailers: HTTPFields? { state.withLock { $0.base }.trailers }

    func next() async throws -> [UInt8]? {
        let base = state.withLock { $0.base }
        let chunk: [UInt8]?
        do {
            chunk = try await base.next()
        } catch {
            await takeWriter()?.abort()
            throw error
        }
        guard let chunk else {
            let rest = storedEnd()
            if let writer = takeWriter() {
                do {
                    // A body that does not inflate is not stored; the reader meets the same error if it decodes.
                    guard let rest else {
                        await writer.abort()
                        return nil
                    }
                    if !rest.isEmpty, try await staged(.cache, { try await writer.write(rest) }) == .declined {
                        await writer.abort()
                        return nil
                    }
                    try await staged(.cache) { try await writer.commit() }
                } catch {
                    await writer.abort()
                    throw error
                }
            }
            return nil
        }
        let stored = storedBytes(of: chunk)
        guard let writer = takeWriter() else { return chunk }
        guard let stored else {
            await writer.abort()
            return chunk
        }
        let outcome: CacheWriteOutcome
        do {
            outcome = stored.isEmpty ? .accepted : try await staged(.cache) { try await writer.write(stored) }
        } catch {
            await writer.abort()
            await base.discard()
            throw error
        }
        if outcome == .declined || !putBack(writer) { await writer.abort() }
        return chunk
    }

    func discard() async {
        let (writer, base) = state.withLock { state in
            state.isDiscarded = true
            state.decoder = nil
            defer { state.writer = nil }
            return (state.writer, state.base)
        }
        await writer?.abort()
        await base.discard()
    }

    /// The bytes the store gets for `chunk`: decoded with the decoder, if any; `nil` when the chunk does not decode.
    /// The decoder runs while the store or a reader keeping the decoded bytes wants them.
    private func storedBytes(of chunk: [UInt8]) -> [UInt8]? {
        state.withLock { state in
            guard let decoder = state.decoder else { return chunk }
            guard state.writer != nil || state.kept != nil else { return nil }
            state.hasDecoded = state.hasDecoded || !chunk.isEmpty
            do {
                let decoded = try codecStaged { try decoder.decode(chunk) }
                state.keep(decoded)
                return decoded
            } catch {
                state.decoder = nil
                state.failKept(error)
                return nil
            }
        }
    }

    /// The decoder's last bytes at the end of the body (none without a decoder); `nil` when the body is truncated or
    /// corrupt. For a reader keeping the decoded bytes the decoder's end check runs even on an empty body, as
    /// inflating it whole would.
    private func storedEnd() -> [UInt8]? {
        state.withLock { state in
            defer { state.decoder = nil }
            guard let decoder = state.decoder, state.writer != nil || state.kept != nil,
                state.hasDecoded || state.kept != nil
            else { return [] }
            do {
                let rest = try codecStaged { try decoder.finish() }
                state.keep(rest)
                return rest
            } catch {
                state.failKept(error)
                return state.hasDecoded ? nil : []
            }
        }
    }

    private func takeWriter() -> (any CacheEntryWriter)? {
        state.withLock { state in
            defer { state.writer = nil }
            return state.writer
        }
    }

    /// Returns the writer for the next chunk; `false` when the body was discarded meanwhile.
    private func putBack(_ writer: any CacheEntryWriter) -> Bool {
        state.withLock { state in
            guard !state.isDiscarded else { return false }
            state.writer = writer
            return true
        }
    }
}

extension CachingBodySource.State {
    /// Adds decoded bytes to those kept for the reader, failing as inflating the whole body would past the limit.
    fileprivate mutating func keep(_ decoded: [UInt8]) {
        guard kept != nil, keptFailure == nil else { return }
        guard let count = kept?.count, count + decoded.count <= keptLimit else {
            kept = nil
            keptFailure = ClientError(
                .protocolViolation, stage: .codec, message: "Response body inflates to more than \(keptLimit) bytes")
            return
        }
        kept?.append(contentsOf: decoded)
    }

    /// Records why the kept bytes are not the decoded body (the first reason counts).
    fileprivate mutating func failKept(_ error: any Error) {
        guard kept != nil, keptFailure == nil else { return }
        kept = nil
        keptFailure = error as? ClientError
            ?? ClientError(.compressionFailed, stage: .codec, message: "Content coding failed", underlying: error)
    }
}
