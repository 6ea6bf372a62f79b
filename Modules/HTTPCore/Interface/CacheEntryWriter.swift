/// Writes one cache entry while its body streams in; the entry becomes visible only when committed.
///
/// ``CacheStore/makeWriter(forKey:head:expectedLength:)`` hands one out. The pipeline calls ``write(_:)`` with
/// each body chunk as the caller reads it, then ``commit()`` at the end of the body, or ``abort()`` when the body
/// fails, is discarded or is cancelled, or when the writer declines.
///
/// ## Implementation requirements
/// - Nothing written is visible to lookups until ``commit()`` returns; then the new entry replaces any entry under
///   the key in one step. Until then, a lookup returns the previous entry, if any, unchanged.
/// - ``abort()``, and a writer that is dropped without ``commit()`` (a crash, a task that never finishes the
///   body), leave nothing visible and keep the previous entry. A store that persists half-written data must
///   recognise and delete it later (when it starts, or in ``PluginLifecycle/run()``), never serve it.
/// - ``write(_:)`` returns ``CacheWriteOutcome/declined`` when the store will not keep the entry (over its size
///   cap, out of space by its own rules); the writer then drops what it has, and the pipeline writes no more and
///   calls ``abort()``.
/// - ``abort()`` is idempotent and may follow a decline, a failed ``write(_:)`` or a failed ``commit()``. Calls
///   arrive one at a time, never concurrently.
/// - Throw ``ClientError`` with ``ClientError/Code/storageFailed`` when storage fails; a failed ``commit()`` leaves
///   the previous entry or the new one, never a mix.
public protocol CacheEntryWriter: Sendable {
    /// Appends body bytes to the pending entry.
    /// - Parameter bytes: The next chunk of the body, decoded when the client has a codec for its content coding
    ///   (the head then has no `Content-Encoding`), as received otherwise.
    /// - Returns: ``CacheWriteOutcome/accepted``, or ``CacheWriteOutcome/declined`` when the store gives the
    ///   entry up.
    /// - Throws: ``ClientError`` when the storage fails.
    func write(_ bytes: [UInt8]) async throws -> CacheWriteOutcome

    /// Makes the entry visible, replacing any entry under the same key.
    /// - Throws: ``ClientError`` when the storage fails; the previous entry then stays.
    func commit() async throws

    /// Gives the entry up: nothing of it becomes visible, and any previous entry stays.
    func abort() async
}

/// What a ``CacheEntryWriter`` answers to a chunk.
public enum CacheWriteOutcome: Sendable, Hashable {
    /// The chunk was kept; write on.
    case accepted
    /// The store gives the entry up (for example, it grew past the store's size cap); write no more.
    case declined
}
