/// A decoder that stops after a given number of decoded bytes, so a body is read in pieces of bounded size.
///
/// A fast decoder fed one chunk decodes it to as much as the compression ratio makes of it: brotli or zstd turn
/// 16 KiB of log text into megabytes at once. Arrays that large are fresh memory each time (page faults, `munmap`)
/// and leave the CPU's cache before the reader sees them; libcurl decodes 16 KiB at a time for that reason. When a
/// codec's decoder adopts this protocol, the pipeline's streaming reader asks it for at most 64 KiB at a time (small
/// enough to stay in the cache and in the allocator's heap) and keeps the input it did not use yet.
public protocol BoundedContentDecoder: ContentDecoder {
    /// Decodes from the start of `input` until `limit` bytes are decoded or the input is used up.
    ///
    /// Call it again with the input it did not use, or with an empty input when it used all of it but returned
    /// `limit` bytes: it may still hold decoded bytes. It is drained when it returns fewer than `limit` bytes
    /// having used all of its input. Then call ``ContentDecoder/finish()`` at the end of the body as usual.
    /// - Parameters:
    ///   - input: Encoded bytes; may be empty.
    ///   - limit: The most bytes to return; more than zero.
    /// - Returns: The decoded bytes, at most `limit`, and how many bytes at the start of `input` it used.
    /// - Throws: ``ClientError`` with ``ClientError/Code/compressionFailed`` on corrupt input or past a limit.
    func decode(_ input: UnsafeRawBufferPointer, atMost limit: Int) throws -> (output: [UInt8], used: Int)

    /// Says how long the encoded body is, before the first decode, when the response gives its length.
    ///
    /// A decoder may pick how it allocates from it: brotli and zstd map the window of a large body so the kernel
    /// can back it with huge pages, which saves a page fault per 4 KiB of window (decision 0039). Never called when
    /// the length is unknown; it may be called more than once with the same length, so it must be idempotent. The
    /// default does nothing.
    /// - Parameter length: The encoded body's length in bytes.
    func prepare(forEncodedLength length: Int64)
}

extension BoundedContentDecoder {
    /// Does nothing: the decoder allocates as it would for a body of unknown length.
    /// - Parameter length: The encoded body's length in bytes.
    public func prepare(forEncodedLength length: Int64) {}
}
