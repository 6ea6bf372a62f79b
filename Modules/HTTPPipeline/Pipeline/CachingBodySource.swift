import HTTPCore
import Synchronization

/// Passes a body through and writes each chunk to a cache writer as it is read; commits at the end of the body.
///
/// Nothing is buffered here: the store decides how much it keeps and may decline at any chunk. The writer is
/// aborted when the body fails (cancellation included), when it is given up with `discard()`, when the store
/// declines the entry, or when a write fails; a body dropped without either never commits, so the store shows
/// nothing of it.
final class CachingBodySource: ResponseBodySource {
    private struct State {
        /// The writer, while it takes chunks and is not in use by a write.
        var writer: (any CacheEntryWriter)?
        /// Set by `discard()`; a write in flight then aborts instead of putting the writer back.
        var isDiscarded = false
    }

    private let base: any ResponseBodySource
    private let state: Mutex<State>

    init(base: any ResponseBodySource, writer: any CacheEntryWriter) {
        self.base = base
        self.state = Mutex(State(writer: writer))
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
                    try await staged(.cache) { try await writer.commit() }
                } catch {
                    await writer.abort()
                    throw error
                }
            }
            return nil
        }
        guard let writer = takeWriter() else { return chunk }
        let outcome: CacheWriteOutcome
        do {
            outcome = try await staged(.cache) { try await writer.write(chunk) }
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
            defer { state.writer = nil }
            return state.writer
        }
        await writer?.abort()
        await base.discard()
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
