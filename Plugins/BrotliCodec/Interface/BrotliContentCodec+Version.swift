import CBrotli

extension BrotliContentCodec {
    /// The version of the libbrotlidec opened at run time, such as `1.0.9`, for version reports like
    /// `asi --version`; `nil` when the system has no `libbrotlidec.so.1`.
    public static var libraryVersion: String? {
        guard let version = BrotliLibrary.system?.functions.version?() else { return nil }
        return "\(version >> 24).\(version >> 12 & 0xFFF).\(version & 0xFFF)"
    }
}
