public import HTTPCore

/// The `br` content coding (RFC 7932) through the system's libbrotlidec: decodes brotli-compressed responses as
/// they stream.
///
/// ```swift
/// let client = Client(transport: .posix(), codecs: [.zlib(), .brotli()])
/// ```
///
/// libbrotlidec is opened at run time (`libbrotlidec.so.1`, Debian's `libbrotli1`), neither linked nor compiled
/// against, so building needs no `libbrotli-dev` (decision 0024). On a machine without it ``isAvailable`` is
/// `false` and ``encodings`` is empty, so the pipeline neither advertises `br` in `Accept-Encoding` nor decodes it:
/// a `br` body is then passed through untouched, like any coding no codec handles.
///
/// Decoding:
/// - Corrupt input, input cut short and data after the end of the brotli stream throw
///   ``ClientError/Code/compressionFailed``, as gzip does; so does output beyond the ``Configuration`` limits,
///   which stop decompression bombs before they fill memory or disk (the same limits as `ZlibContentCodec`).
/// - Decoders are streaming: each chunk is decoded as it arrives, so memory stays flat whatever the body's size (the
///   ring buffer, at most the stream's window, plus one bounded piece). The streaming reader asks for 64 KiB at a
///   time and tells the decoder the encoded length when the response gives it; a body of at least 256 KiB has its
///   ring buffer mapped on its own and marked for huge pages, which spares a page fault per 4 KiB of it (decision
///   0039). Each decoder is used by one task at a time.
///
/// Encoding is not offered: ``makeEncoder(for:)`` throws, and request bodies are compressed with gzip.
public struct BrotliContentCodec: ContentCodec {
    /// Decompression limits, the same as gzip's.
    public struct Configuration: Sendable, Hashable {
        /// The most bytes one body may decode to; `nil` for no limit. Default `nil`: downloads to a file may be
        /// large, and ``maxRatio`` already stops bombs.
        public var maxDecodedBytes: Int64?
        /// The largest ratio of decoded to encoded bytes accepted once more than ``ratioThreshold`` bytes were
        /// decoded; `nil` for no limit. Default 200, as for gzip: text rarely compresses beyond 20:1 with gzip or
        /// 30:1 with brotli, while a bomb reaches millions to one.
        public var maxRatio: Int?
        /// How many decoded bytes are always accepted before ``maxRatio`` applies, so that small, very
        /// repetitive bodies pass. Default 1 MiB.
        public var ratioThreshold: Int64

        /// Creates a configuration.
        /// - Parameters:
        ///   - maxDecodedBytes: The most bytes one body may decode to, or `nil`.
        ///   - maxRatio: The largest decoded-to-encoded ratio past the threshold, or `nil`.
        ///   - ratioThreshold: Decoded bytes accepted before the ratio applies.
        public init(maxDecodedBytes: Int64? = nil, maxRatio: Int? = 200, ratioThreshold: Int64 = 1 << 20) {
            self.maxDecodedBytes = maxDecodedBytes
            self.maxRatio = maxRatio
            self.ratioThreshold = ratioThreshold
        }
    }

    /// The codec's limits.
    public let configuration: Configuration
    /// The bomb limits of ``configuration``, checked once here and shared by every decoder.
    let decompressionLimits: DecompressionLimits
    /// The library this codec decodes with; `nil` when it could not be loaded.
    let library: BrotliLibrary?

    /// Creates a codec.
    ///
    /// A negative limit or a ratio below 1 is a programmer error and traps.
    /// - Parameter configuration: The limits.
    public init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, library: BrotliLibrary.system)
    }

    /// Creates a codec on the library `libraryName`, for tests of a machine without it.
    /// - Parameters:
    ///   - configuration: The limits.
    ///   - libraryName: The file `dlopen` is given, such as `libbrotlidec.so.1`.
    package init(configuration: Configuration = Configuration(), libraryName: String) {
        self.init(configuration: configuration, library: BrotliLibrary.load(libraryName))
    }

    private init(configuration: Configuration, library: BrotliLibrary?) {
        self.configuration = configuration
        self.library = library
        decompressionLimits = DecompressionLimits(
            maxDecodedBytes: configuration.maxDecodedBytes, maxRatio: configuration.maxRatio,
            ratioThreshold: configuration.ratioThreshold, verb: "decodes")
    }

    /// Whether libbrotlidec was loaded, so that this codec can decode.
    public var isAvailable: Bool { library != nil }

    /// `br` when libbrotlidec is loaded, otherwise nothing, so that `br` is never advertised without a decoder.
    public var encodings: [String] { isAvailable ? ["br"] : [] }

    /// Makes a streaming decoder.
    /// - Parameter encoding: `br`, in any case.
    /// - Returns: A fresh decoder.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` for another coding or when
    ///   libbrotlidec cannot be loaded, or ``ClientError/Code/compressionFailed`` when it cannot start.
    public func makeDecoder(for encoding: String) throws -> any ContentDecoder {
        guard encoding.lowercased() == "br" else {
            throw ClientError(
                .invalidConfiguration, message: "BrotliContentCodec does not handle the coding \(encoding)")
        }
        guard let library else {
            throw ClientError(
                .invalidConfiguration, message: "Cannot decode br: libbrotlidec.so.1 (libbrotli1) cannot be loaded")
        }
        return try BrotliDecoder(library: library, limits: decompressionLimits)
    }

    /// Brotli compression is not offered.
    /// - Parameter encoding: Any coding.
    /// - Returns: Never.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration``: compress request bodies with gzip.
    public func makeEncoder(for encoding: String) throws -> any ContentEncoder {
        throw ClientError(.invalidConfiguration, message: "BrotliContentCodec decodes only; compress with gzip")
    }
}

extension ContentCodec where Self == BrotliContentCodec {
    /// The brotli codec for `br`, decoding only.
    /// - Parameter configuration: Decompression limits.
    /// - Returns: A codec; its ``BrotliContentCodec/encodings`` are empty when libbrotlidec cannot be loaded.
    public static func brotli(_ configuration: BrotliContentCodec.Configuration = .init()) -> BrotliContentCodec {
        BrotliContentCodec(configuration: configuration)
    }
}
