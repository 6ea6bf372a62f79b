import CZstd

extension ZstdContentCodec {
    /// The version of the libzstd opened at run time, such as `1.5.4`, for version reports like `asi --version`;
    /// `nil` when the system has no `libzstd.so.1`.
    public static var libraryVersion: String? {
        ZstdLibrary.system?.functions.versionString?().map { String(cString: $0) }
    }
}
