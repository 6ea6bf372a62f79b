import FoundationEssentials
import GzipCodec
import HTTPCore
import HTTPPipeline
import SocketTransport
import TestSupport

/// The data-path interop tests' client helpers, beside the only tests that use them.
extension DataPath {
    /// A client over the real transport with the zlib codec.
    static func client() -> Client {
        Client(transport: .posix(), codecs: [.zlib()])
    }

    /// A GET that downloads to `directory/out`, optionally resuming through `directory/part`.
    static func download(_ url: URL, into directory: String, resume: Bool = false) -> Request {
        var request = Request(url: url)
        request.options.download = DownloadOptions(
            destinationPath: directory + "/out", temporaryPath: resume ? directory + "/part" : nil, allowsResume: resume
        )
        return request
    }
}
