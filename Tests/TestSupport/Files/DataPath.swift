package import FoundationEssentials
import Glibc
import GzipCodec
package import HTTPCore
package import HTTPPipeline
import SocketTransport

/// Helpers shared by the data-path interop tests.
package enum DataPath {
    /// A client over the real transport with the zlib codec.
    package static func client() -> Client {
        Client(transport: .posix(), codecs: [.zlib()])
    }

    /// Deterministic pseudo-random bytes.
    package static func bytes(_ count: Int, seed: UInt32 = 0x9E37_79B9) -> [UInt8] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }

    /// Compressible text of about `count` bytes.
    package static func text(_ count: Int) -> [UInt8] {
        var text: [UInt8] = []
        var line = 0
        while text.count < count {
            text += Array("line \(line): the quick brown fox jumps over the lazy dog\n".utf8)
            line += 1
        }
        return Array(text.prefix(count))
    }

    package static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let encoder = try ZlibContentCodec.zlib().makeEncoder(for: "gzip")
        return try encoder.encode(bytes) + encoder.finish()
    }

    package static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let decoder = try ZlibContentCodec.zlib().makeDecoder(for: "gzip")
        return try decoder.decode(bytes) + decoder.finish()
    }

    /// A fresh temporary directory; remove it with `FileManager.default.removeItem`.
    package static func directory() throws -> String {
        try makeTemporaryDirectory(prefix: "asikit-data")
    }

    package static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }

    package static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(filePath: path))
    }

    package static func listing(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// A GET that downloads to `directory/out`, optionally resuming through `directory/part`.
    package static func download(_ url: URL, into directory: String, resume: Bool = false) -> Request {
        var request = Request(url: url)
        request.options.download = DownloadOptions(
            destinationPath: directory + "/out", temporaryPath: resume ? directory + "/part" : nil, allowsResume: resume
        )
        return request
    }
}
