import FoundationEssentials
import Glibc

/// The `brotli` and `zstd` command-line tools (Debian's `brotli` and `zstd`, installed by
/// `scripts/install-dependencies.sh`), which make the test bodies for the `br` and `zstd` codecs: an independent
/// encoder, so that a decoder is never proven only against its own output.
package enum CompressionTool {
    /// Where `brotli` is installed, or `nil`.
    package static let brotli: String? = ChildProcess.find("brotli")
    /// Where `zstd` is installed, or `nil`.
    package static let zstd: String? = ChildProcess.find("zstd")

    /// Whether the tests that need both tools should run: they are installed, or `ASI_REQUIRE_PEERS=1` asks for a
    /// failure when they are not.
    package static let shouldRun = (brotli != nil && zstd != nil) || PeerEnvironment.peersRequired

    /// `bytes` compressed by `brotli -q quality`.
    package static func brotli(_ bytes: [UInt8], quality: Int = 5) throws -> [UInt8] {
        try run(input: bytes) { "\(try path(brotli, "brotli")) -q \(quality) -c \($0)" }
    }

    /// `bytes` compressed by `zstd -level` with `extra` options (such as `--long=24`), reading standard input so
    /// that the frame does not record the size.
    package static func zstd(_ bytes: [UInt8], level: Int = 3, extra: String = "") throws -> [UInt8] {
        try run(input: bytes) { "\(try path(zstd, "zstd")) -q -\(level) \(extra) -c < \($0)" }
    }

    /// The standard output of a shell command, such as `head -c 64M /dev/zero | brotli -c` for a bomb.
    package static func output(of command: String) throws -> [UInt8] {
        try run(input: []) { _ in command }
    }

    private static func path(_ tool: String?, _ name: String) throws -> String {
        guard let tool else { throw PeerError.notInstalled(name) }
        return tool
    }

    private static func run(input: [UInt8], command: (String) throws -> String) throws -> [UInt8] {
        let directory = try makeTemporaryDirectory(prefix: "asikit-codec")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(input).write(to: URL(filePath: directory + "/in"))
        let status = system("\(try command(directory + "/in")) > \(directory)/out")
        guard status == 0, let output = FileManager.default.contents(atPath: directory + "/out") else {
            throw PeerError.startFailed("the compressor", log: "exit status \(status)")
        }
        return Array(output)
    }
}
