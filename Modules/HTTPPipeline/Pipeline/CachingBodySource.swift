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
final class CachingBodySource: ResponseBodySource {
    private struct State {
        /// The writer, while it takes chunks and is not in use by a write.
        var writer: (any CacheEntryWriter)?
        /// Undoes the body's content coding for the store; `nil` when the store keeps the bytes as sent.
        var decoder: (any ContentDecoder)?
        /// Whether the decoder got any byte; an empty body (a 204) has no coding to finish.
        var hasDecoded = false
        /// Set by `discard()`; a write in flight then aborts instead of putting the writer back.
        var isDiscarded = false
    }

    private let base: any ResponseBodySource
    private let state: Mutex<State>

    init(base: any ResponseBodySource, writer: any CacheEntryWriter, decoder: sending (any ContentDecoder)? = nil) {
        self.base = base
        self.state = Mutex(State(writer: writer, decoder: decoder))
    }

    func next() async throws -> [UInt8]? {
        let chunk: [UInt8]?
        do {
            chunk = try await base.next()
        } catch {
            await takeWriter()?.abort()
            throw error
        }
        guard let chunk else {
            if let writer = takeWriter() {
                do {
                    // A body that does not inflate is not stored; the reader meets the same error if it decodes.
                    guard let rest = storedEnd() else {
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
        guard let writer = takeWriter() else { return chunk }
        guard let stored = storedBytes(of: chunk) else {
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
        let writer = state.withLock { state in
            state.isDiscarded = true
            state.decoder = nil
            defer { state.writer = nil }
            return state.writer
        }
        await writer?.abort()
        await base.discard()
    }

    /// The bytes the store gets for `chunk`: decoded with the decoder, if any; `nil` when the chunk does not decode.
    private func storedBytes(of chunk: [UInt8]) -> [UInt8]? {
        state.withLock { state in
            guard let decoder = state.decoder else { return chunk }
            state.hasDecoded = state.hasDecoded || !chunk.isEmpty
            do {
                return try decoder.decode(chunk)
            } catch {
                state.decoder = nil
                return nil
            }
        }
    }

    /// The decoder's last bytes at the end of the body (none without a decoder); `nil` when the body is truncated or
    /// corrupt.
    private func storedEnd() -> [UInt8]? {
        state.withLock { state in
            defer { state.decoder = nil }
            guard let decoder = state.decoder, state.hasDecoded else { return [] }
            return try? decoder.finish()
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
