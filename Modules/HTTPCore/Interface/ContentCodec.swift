/// Encodes and decodes one or more content codings (`gzip`, `deflate`), for response bodies
/// (`Content-Encoding`) and compressed request bodies.
///
/// The pipeline advertises every registered codec's codings in `Accept-Encoding` and decodes responses with
/// the codec whose ``encodings`` contain the response's coding.
///
/// ## Implementation requirements
/// Decoders must reject corrupt or truncated input with ``ClientError/Code/compressionFailed`` and never
/// return silently short output.
public protocol ContentCodec: Sendable {
    /// The codings handled, lower-case, in order of preference (for example `["gzip", "deflate"]`).
    var encodings: [String] { get }
    /// Makes a streaming decoder.
    /// - Parameter encoding: One of ``encodings``.
    /// - Returns: A fresh decoder.
    /// - Throws: ``ClientError`` when the decoder cannot be made.
    func makeDecoder(for encoding: String) throws -> any ContentDecoder
    /// Makes a streaming encoder.
    /// - Parameter encoding: One of ``encodings``.
    /// - Returns: A fresh encoder.
    /// - Throws: ``ClientError`` when the encoder cannot be made.
    func makeEncoder(for encoding: String) throws -> any ContentEncoder
}

/// Turns encoded chunks back into the original bytes. Used by one task at a time.
public protocol ContentDecoder: AnyObject {
    /// Decodes the next chunk.
    /// - Parameter chunk: Encoded bytes.
    /// - Returns: The decoded bytes available so far.
    /// - Throws: ``ClientError`` with ``ClientError/Code/compressionFailed`` on corrupt input.
    func decode(_ chunk: [UInt8]) throws -> [UInt8]
    /// Ends the stream.
    /// - Returns: Any remaining decoded bytes.
    /// - Throws: ``ClientError`` with ``ClientError/Code/compressionFailed`` when the input was truncated.
    func finish() throws -> [UInt8]
}

/// Encodes chunks. Used by one task at a time.
public protocol ContentEncoder: AnyObject {
    /// Encodes the next chunk.
    /// - Parameter chunk: Plain bytes.
    /// - Returns: The encoded bytes available so far.
    /// - Throws: ``ClientError`` with ``ClientError/Code/compressionFailed``.
    func encode(_ chunk: [UInt8]) throws -> [UInt8]
    /// Ends the stream.
    /// - Returns: The remaining encoded bytes.
    /// - Throws: ``ClientError`` with ``ClientError/Code/compressionFailed``.
    func finish() throws -> [UInt8]
}
