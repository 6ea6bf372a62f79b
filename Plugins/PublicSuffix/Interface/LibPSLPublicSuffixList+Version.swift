import CLibPSL

extension LibPSLPublicSuffixList {
    /// The version of the libpsl opened at run time, such as `0.21.2 (+libidn2/2.3.3)`, for version reports like
    /// `asi --version`; `nil` when the system has no libpsl.
    public static var libraryVersion: String? {
        library?.version?().map { String(cString: $0) }
    }
}
