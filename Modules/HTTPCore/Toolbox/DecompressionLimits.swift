/// The decompression-bomb limits every content codec of this package applies as it decodes (gzip, deflate, br,
/// zstd): a cap on the decoded bytes, and a cap on the decoded-to-encoded ratio once a threshold is passed. One
/// copy of the rule, so the codecs cannot drift apart.
package struct DecompressionLimits: Sendable {
    /// The most bytes one body may decode to, or `nil` for no cap.
    package var maxDecodedBytes: Int64?
    /// The largest decoded-to-encoded ratio accepted past ``ratioThreshold``, or `nil` for none.
    package var maxRatio: Int?
    /// Decoded bytes always accepted before ``maxRatio`` applies.
    package var ratioThreshold: Int64
    /// The verb of the error messages: `inflates` (zlib) or `decodes`.
    package var verb: String

    /// Takes the limits; a negative cap or threshold, or a ratio below 1, is a programmer error and traps.
    package init(maxDecodedBytes: Int64?, maxRatio: Int?, ratioThreshold: Int64, verb: String) {
        precondition((maxDecodedBytes ?? 0) >= 0, "maxDecodedBytes must not be negative")
        precondition((maxRatio ?? 1) >= 1, "maxRatio must be at least 1")
        precondition(ratioThreshold >= 0, "ratioThreshold must not be negative")
        self.maxDecodedBytes = maxDecodedBytes
        self.maxRatio = maxRatio
        self.ratioThreshold = ratioThreshold
        self.verb = verb
    }

    /// Throws ``ClientError/Code/compressionFailed`` when `decoded` bytes from `consumed` encoded ones break a limit.
    package func check(decoded: Int64, consumed: Int64) throws(ClientError) {
        if let maxDecodedBytes, decoded > maxDecodedBytes {
            throw ClientError(.compressionFailed, message: "The body \(verb) to more than \(maxDecodedBytes) bytes")
        }
        if let maxRatio, decoded > ratioThreshold, decoded / max(consumed, 1) > Int64(maxRatio) {
            throw ClientError(
                .compressionFailed, message: "The body \(verb) more than \(maxRatio) times its compressed size")
        }
    }
}
