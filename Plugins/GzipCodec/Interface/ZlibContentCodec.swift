public import HTTPCore

/// The `gzip` and `deflate` content codings through the system's zlib: inflates compressed responses and
/// compresses request bodies.
///
/// ```swift
/// let client = Client(transport: .posix(), codecs: [.zlib()])
/// ```
///
/// Decoding (ASIHTTPRequest's `ASIDataDecompressor`):
/// - `gzip` (and `x-gzip`) accepts gzip framing, and a zlib stream too, as zlib's `inflateInit2(15 + 32)` does;
///   several gzip members in a row (`cat a.gz b.gz`) decode to the concatenation, as `zcat` does.
/// - `deflate` is meant to be a zlib stream (RFC 9110 §8.4.1.2), but some servers send raw deflate; the decoder
///   looks at the first two bytes and takes a zlib header when it sees one, raw deflate otherwise.
/// - Corrupt input, input cut short, and data after the end of a zlib or raw stream throw
///   ``ClientError/Code/compressionFailed``; so does output beyond the ``Configuration`` limits, which stop
///   decompression bombs before they fill memory or disk.
///
/// Encoding (ASIHTTPRequest's `ASIDataCompressor`) produces gzip (`gzip`) or zlib (`deflate`) framing at the
/// configured level; the output is what the `gzip` tool reads.
///
/// Decoders and encoders are streaming and hold about 300 KiB each; each is used by one task at a time.
public struct ZlibContentCodec: ContentCodec {
    /// Compression level and decompression limits.
    public struct Configuration: Sendable, Hashable {
        /// The zlib compression level, 0 (store) to 9 (smallest), or -1 for zlib's default (6), which
        /// ASIHTTPRequest uses. Default -1.
        public var compressionLevel: Int
        /// The most bytes one body may decode to; `nil` for no limit. Default `nil`: downloads to a file may be
        /// large, and ``maxRatio`` already stops bombs.
        public var maxDecodedBytes: Int64?
        /// The largest ratio of decoded to encoded bytes accepted once more than ``ratioThreshold`` bytes were
        /// decoded; `nil` for no limit. Default 200: text rarely compresses beyond 20:1, while a bomb reaches
        /// 1000:1.
        public var maxRatio: Int?
        /// How many decoded bytes are always accepted before ``maxRatio`` applies, so that small, very
        /// repetitive bodies pass. Default 1 MiB.
        public var ratioThreshold: Int64

        /// Creates a configuration.
        /// - Parameters:
        ///   - compressionLevel: The zlib level, -1 to 9.
        ///   - maxDecodedBytes: The most bytes one body may decode to, or `nil`.
        ///   - maxRatio: The largest decoded-to-encoded ratio past the threshold, or `nil`.
        ///   - ratioThreshold: Decoded bytes accepted before the ratio applies.
        public init(
            compressionLevel: Int = -1,
            maxDecodedBytes: Int64? = nil,
            maxRatio: Int? = 200,
            ratioThreshold: Int64 = 1 << 20
        ) {
            self.compressionLevel = compressionLevel
            self.maxDecodedBytes = maxDecodedBytes
            self.maxRatio = maxRatio
            self.ratioThreshold = ratioThreshold
        }
    }

    /// The codec's settings.
    public let configuration: Configuration
    /// The bomb limits of ``configuration``, checked once here and shared by every decoder.
    let decompressionLimits: DecompressionLimits

    /// `deflate`, then `gzip`: the order curl offers them in, so that `Accept-Encoding` reads
    /// `deflate, gzip` (then `br, zstd` when those codecs follow this one).
    public var encodings: [String] { ["deflate", "gzip"] }

    /// Creates a codec.
    ///
    /// A compression level outside -1...9, a negative limit or a ratio below 1 is a programmer error and traps.
    /// - Parameter configuration: The level and limits.
    public init(configuration: Configuration = Configuration()) {
        precondition((-1...9).contains(configuration.compressionLevel), "compressionLevel must be -1...9")
        self.configuration = configuration
        decompressionLimits = DecompressionLimits(
            maxDecodedBytes: configuration.maxDecodedBytes, maxRatio: configuration.maxRatio,
            ratioThreshold: configuration.ratioThreshold, verb: "inflates")
    }

    /// Makes a streaming decoder.
    /// - Parameter encoding: `gzip`, `x-gzip` or `deflate`, in any case.
    /// - Returns: A fresh decoder.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` for another coding, or
    ///   ``ClientError/Code/compressionFailed`` when zlib cannot start.
    public func makeDecoder(for encoding: String) throws -> any ContentDecoder {
        let format: ZlibDecoder.Format
        switch encoding.lowercased() {
        case "gzip", "x-gzip": format = .gzipOrZlib
        case "deflate": format = .zlibOrRaw
        default: throw Self.unsupported(encoding)
        }
        return try ZlibDecoder(format: format, limits: decompressionLimits)
    }

    /// Makes a streaming encoder.
    /// - Parameter encoding: `gzip`, `x-gzip` or `deflate` (zlib framing), in any case.
    /// - Returns: A fresh encoder.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` for another coding, or
    ///   ``ClientError/Code/compressionFailed`` when zlib cannot start.
    public func makeEncoder(for encoding: String) throws -> any ContentEncoder {
        switch encoding.lowercased() {
        case "gzip", "x-gzip": return try ZlibEncoder(gzip: true, level: configuration.compressionLevel)
        case "deflate": return try ZlibEncoder(gzip: false, level: configuration.compressionLevel)
        default: throw Self.unsupported(encoding)
        }
    }

    private static func unsupported(_ encoding: String) -> ClientError {
        ClientError(.invalidConfiguration, message: "ZlibContentCodec does not handle the coding \(encoding)")
    }
}

extension ContentCodec where Self == ZlibContentCodec {
    /// The zlib codec for `gzip` and `deflate`.
    /// - Parameter configuration: Compression level and decompression limits.
    /// - Returns: A codec.
    public static func zlib(_ configuration: ZlibContentCodec.Configuration = .init()) -> ZlibContentCodec {
        ZlibContentCodec(configuration: configuration)
    }
}
