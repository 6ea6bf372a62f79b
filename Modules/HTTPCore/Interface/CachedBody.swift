public import FoundationEssentials

/// The body of one committed cache entry, read lazily: as a stream, or from the file that holds it.
///
/// A ``CacheStore`` returns it inside a ``CacheEntry``; nothing is read until ``open()``.
///
/// ## Implementation requirements
/// - Refer to the body committed with the head it was returned with. A commit under the same key after the
///   lookup must not change what ``open()`` yields (open the file by a version-specific name, keep the old
///   bytes, or return `nil`).
/// - ``open()`` may be called more than once; each call starts a new stream from the first byte. Return `nil`
///   when the body is gone (evicted or removed since the lookup): the pipeline then treats the entry as missing.
/// - ``fileURL`` is a file holding exactly the body bytes, which the caller only reads and never moves or
///   deletes; `nil` (the default) when the store does not keep the body in one file.
///
/// ## Implement a custom cached body
/// ```swift
/// struct BodyFile: CachedBody {
///     let url: URL
///     func open() async throws -> ResponseBody? { try await FileBody.open(url) }  // your file reader
///     var fileURL: URL? { url }
/// }
/// ```
/// Stores that keep bodies in memory use ``InMemoryCachedBody``.
public protocol CachedBody: Sendable {
    /// Opens the body as a stream of chunks.
    /// - Returns: The body, with its length when known, or `nil` when it is no longer stored.
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed`` when the storage fails.
    func open() async throws -> ResponseBody?

    /// A file that holds exactly the body, for serving a download to a file without reading it into memory.
    var fileURL: URL? { get }
}

extension CachedBody {
    /// `nil`: the body is not kept in one file.
    public var fileURL: URL? { nil }
}

/// A cached body held in memory, for stores that keep entries in memory.
public struct InMemoryCachedBody: CachedBody, Hashable {
    /// The body bytes.
    public var bytes: [UInt8]

    /// Creates a body over bytes.
    /// - Parameter bytes: The whole body.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Returns a stream over the bytes.
    /// - Returns: The body.
    public func open() async throws -> ResponseBody? { ResponseBody(bytes: bytes) }
}
