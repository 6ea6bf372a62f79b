import CZlib

extension ZlibContentCodec {
    /// The version of the zlib library linked at run time, such as `1.2.13`, for version reports like
    /// `asi --version`.
    public static var zlibVersion: String {
        CZlib.zlibVersion().map { String(cString: $0) } ?? "unknown"
    }
}
