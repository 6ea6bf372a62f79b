import COpenSSL

extension POSIXTransport {
    /// The version of the OpenSSL library linked at run time, such as `3.0.22` (not the headers' version at build
    /// time), for version reports like `asi --version`.
    public static var openSSLVersion: String {
        OpenSSL_version(OPENSSL_VERSION_STRING).map { String(cString: $0) } ?? "unknown"
    }
}
