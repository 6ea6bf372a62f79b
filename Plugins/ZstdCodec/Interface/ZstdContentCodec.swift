public import HTTPCore

/// The `zstd` content coding (RFC 8878, RFC 9659) through the system's libzstd: decodes Zstandard-compressed
/// responses as they stream.
///
/// ```swift
/// let client = Client(transport: .posix(), codecs: [.zlib(), .zstd()])
/// ```
///
/// libzstd is opened at run time (`libzstd.so.1`, Debian's `libzstd1`), neither linked nor compiled against, so
/// building needs no `libzstd-dev` (decision 0024). On a machine without it ``isAvailable`` is `false` and
/// ``encodings`` is empty, so the pipeline neither advertises `zstd` in `Accept-Encoding` nor decodes it: a `zstd`
/// body is then passed through untouched, like any coding no codec handles.
///
/// Decoding:
/// - Several frames in a row decode to the concatenation, as `zstd -d` does; skippable frames are skipped.
/// - Corrupt input, input cut short inside a frame, and a frame whose window is larger than
///   ``Configuration/maxWindowLog`` allows throw ``ClientError/Code/compressionFailed``, as gzip does; so does
///   output beyond the ``Configuration`` limits, which stop decompression bombs before they fill memory or disk
///   (the same limits as `ZlibContentCodec`).
/// - Decoders are streaming: each chunk is decoded as it arrives, so memory stays flat whatever the body's size (the
///   window, at most 8 MiB by default, plus one bounded piece). The streaming reader asks for 64 KiB at a time and
///   tells the decoder the encoded length when the response gives it; a body of at least 256 KiB has its window
///   mapped on its own and marked for huge pages, which spares a page fault per 4 KiB of window (decision 0039).
///   Each decoder is used by one task at a time.
///
/// Encoding is not offered: ``makeEncoder(for:)`` throws, and request bodies are compressed with gzip.
public struct ZstdContentCodec: ContentCodec {
    /// Decompression limits, the same as gzip's, and the largest window a frame may ask for.
    public struct Configuration: Sendable, Hashable {
        /// The most bytes one body may decode to; `nil` for no limit. Default `nil`: downloads to a file may be
        /// large, and ``maxRatio`` already stops bombs.
        public var maxDecodedBytes: Int64?
        /// The largest ratio of decoded to encoded bytes accepted once more than ``ratioThreshold`` bytes were
        /// decoded; `nil` for no limit. Default 200, as for gzip: text rarely compresses beyond 20:1 with gzip or
        /// 30:1 with zstd, while a bomb reaches millions to one.
        public var maxRatio: Int?
        /// How many decoded bytes are always accepted before ``maxRatio`` applies, so that small, very
        /// repetitive bodies pass. Default 1 MiB.
        public var ratioThreshold: Int64
        /// The largest window a frame may need, as a power of two, 10 to 31: the memory a decoder may allocate for
        /// it. Default 23 (8 MiB), the limit RFC 9659 sets for the `zstd` content coding (`zstd -19` stays within
        /// it; `zstd --long` does not).
        public var maxWindowLog: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - maxDecodedBytes: The most bytes one body may decode to, or `nil`.
        ///   - maxRatio: The largest decoded-to-encoded ratio past the threshold, or `nil`.
        ///   - ratioThreshold: Decoded bytes accepted before the ratio applies.
        ///   - maxWindowLog: The largest window a frame may need, as a power of two.
        public init(
            maxDecodedBytes: Int64? = nil,
            maxRatio: Int? = 200,
            ratioThreshold: Int64 = 1 << 20,
            maxWindowLog: Int = 23
        ) {
            self.maxDecodedBytes = maxDecodedBytes
            self.maxRatio = maxRatio
            self.ratioThreshold = ratioThreshold
            self.maxWindowLog = maxWindowLog
        }
    }

    /// The codec's limits.
    public let configuration: Configuration
    /// The bomb limits of ``configuration``, checked once here and shared by every decoder.
    let decompressionLimits: DecompressionLimits
    /// The library this codec decodes with; `nil` when it could not be loaded.
    let library: ZstdLibrary?

    /// Creates a codec.
    ///
    /// A negative limit, a ratio below 1 or a window outside 10...31 is a programmer error and traps.
    /// - Parameter configuration: The limits.
    public init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, library: ZstdLibrary.system)
    }

    /// Creates a codec on the library `libraryName`, for tests of a machine without it.
    /// - Parameters:
    ///   - configuration: The limits.
    ///   - libraryName: The file `dlopen` is given, such as `libzstd.so.1`.
    package init(configuration: Configuration = Configuration(), libraryName: String) {
        self.init(configuration: configuration, library: ZstdLibrary.load(libraryName))
    }

    private init(configuration: Configuration, library: ZstdLibrary?) {
        precondition((10...31).contains(configuration.maxWindowLog), "maxWindowLog must be 10...31")
        self.configuration = configuration
        self.library = library
        decompressionLimits = DecompressionLimits(
            maxDecodedBytes: configuration.maxDecodedBytes, maxRatio: configuration.maxRatio,
            ratioThreshold: configuration.ratioThreshold, verb: "decodes")
    }

    /// Whether libzstd was loaded, so that this codec can decode.
    public var isAvailable: Bool { library != nil }

    /// `zstd` when libzstd is loaded, otherwise nothing, so that `zstd` is never advertised without a decoder.
    public var encodings: [String] { isAvailable ? ["zstd"] : [] }

    /// Makes a streaming decoder.
    /// - Parameter encoding: `zstd`, in any case.
    /// - Returns: A fresh decoder.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` for another coding or when libzstd
    ///   cannot be loaded, or ``ClientError/Code/compressionFailed`` when it cannot start.
    public func makeDecoder(for encoding: String) throws -> any ContentDecoder {
        guard encoding.lowercased() == "zstd" else {
            throw ClientError(.invalidConfiguration, message: "ZstdContentCodec does not handle the coding \(encoding)")
        }
        guard let library else {
            throw ClientError(
                .invalidConfiguration, message: "Cannot decode zstd: libzstd.so.1 (libzstd1) cannot be loaded")
        }
        return try ZstdDecoder(library: library, limits: decompressionLimits, maxWindowLog: configuration.maxWindowLog)
    }

    /// Zstandard compression is not offered.
    /// - Parameter encoding: Any coding.
    /// - Returns: Never.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration``: compress request bodies with gzip.
    public func makeEncoder(for encoding: String) throws -> any ContentEncoder {
        throw ClientError(.invalidConfiguration, message: "ZstdContentCodec decodes only; compress with gzip")
    }
}

extension ContentCodec where Self == ZstdContentCodec {
    /// The Zstandard codec for `zstd`, decoding only.
    /// - Parameter configuration: Decompression limits.
    /// - Returns: A codec; its ``ZstdContentCodec/encodings`` are empty when libzstd cannot be loaded.
    public static func zstd(_ configuration: ZstdContentCodec.Configuration = .init()) -> ZstdContentCodec {
        ZstdContentCodec(configuration: configuration)
    }
}
