import BrotliCodec
import GzipCodec
import HTTPPipeline
import PublicSuffix
import SocketTransport
import ZstdCodec

#if canImport(Glibc)
import Glibc
#endif

/// `-V, --version`: what curl's `-V` prints, for `asi`. The first line names asi's version (ASIKit's
/// ``Client/frameworkVersion``: asi ships with the framework) and the versions of the libraries it runs with, read
/// at run time (curl's `-V` shows the same for libcurl's); then the protocols and the features this build supports.
enum VersionReport {
    /// The protocols `asi` speaks.
    static let protocols = ["http", "https"]

    /// What this build can do, named as curl names its features where curl has the same one.
    static let features = [
        "AWS-SigV4", "Basic", "cache", "cookies", "deflate", "Digest", "gzip", "HTTPS-proxy", "IPv6", "keyring",
        "libz", "netrc", "NTLM", "PAC", "parallel", "PSL", "S3", "SOCKS", "throttle",
    ]

    /// The report, three lines, each ending in a line break.
    static var text: String {
        var libraries = [
            "ASIKit/\(Client.frameworkVersion)", "OpenSSL/\(POSIXTransport.openSSLVersion)",
            "zlib/\(ZlibContentCodec.zlibVersion)",
        ]
        // libbrotlidec and libzstd are opened at run time; without them br and zstd are neither offered nor listed.
        let brotli = BrotliContentCodec.libraryVersion
        let zstd = ZstdContentCodec.libraryVersion
        if let brotli { libraries.append("brotli/\(brotli)") }
        if let zstd { libraries.append("zstd/\(zstd)") }
        // libpsl is opened at run time; without it cookies are refused for every Domain, and PSL is not offered.
        let psl = LibPSLPublicSuffixList.libraryVersion
        if let psl { libraries.append("libpsl/\(psl)") }
        let loaded = features + (brotli == nil ? [] : ["brotli"]) + (zstd == nil ? [] : ["zstd"])
        let sorted = loaded.filter { psl != nil || $0 != "PSL" }.sorted { $0.lowercased() < $1.lowercased() }
        return "asi \(Client.frameworkVersion) (\(machine)-linux) \(libraries.joined(separator: " "))\n"
            + "Protocols: \(protocols.joined(separator: " "))\n"
            + "Features: \(sorted.joined(separator: " "))\n"
    }

    /// The machine `uname` reports, such as `x86_64`.
    private static var machine: String {
        var names = utsname()
        uname(&names)
        return withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
