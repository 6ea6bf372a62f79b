/// A cache entry as a lookup returns it: the head, read, and the body, not yet read.
///
/// The body is opened only when the pipeline uses the entry (a fresh hit, or after a `304`); a stale entry that
/// the server replaces never loads its body.
public struct CacheEntry: Sendable {
    /// The status, header fields, dates, storage policy and `Vary` request fields.
    public var head: CachedResponseHead
    /// The body, opened on demand.
    public var body: any CachedBody

    /// Creates an entry.
    /// - Parameters:
    ///   - head: The head.
    ///   - body: The body, opened on demand.
    public init(head: CachedResponseHead, body: any CachedBody) {
        self.head = head
        self.body = body
    }
}
