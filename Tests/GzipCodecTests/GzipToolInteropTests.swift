import FoundationEssentials
import Glibc
import GzipCodec
import HTTPCore
import Testing

/// The `gzip` tool, when installed.
let installedGzip: String? = ["/usr/bin/gzip", "/bin/gzip"].first { access($0, X_OK) == 0 }

/// Interop with the `gzip` command-line tool through files, in both directions.
@Suite(.enabled(if: installedGzip != nil))
struct GzipToolInteropTests {
    static var gzipPath: String? { installedGzip }

    /// A fresh temporary directory, removed by the caller.
    static func directory() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/asikit-gzip-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw ClientError(.storageFailed, message: "mkdtemp failed") }
        return String(cString: made)
    }

    static func shell(_ command: String) -> Int32 {
        system(command)
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ClientError(.storageFailed, message: "cannot read \(path)")
        }
        return Array(data)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ClientError(.storageFailed, message: "cannot write \(path)")
        }
    }

    @Test(arguments: [false, true])
    func theToolReadsWhatTheEncoderWrites(binary: Bool) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sample = binary ? Samples.noise + Samples.text : Samples.text
        try Self.write(try encode(sample, as: "gzip", pieces: 1_000), to: directory + "/ours.gz")
        #expect(Self.shell("\(Self.gzipPath!) -t \(directory)/ours.gz") == 0)
        #expect(Self.shell("\(Self.gzipPath!) -dc \(directory)/ours.gz > \(directory)/plain") == 0)
        #expect(try Self.read(directory + "/plain") == sample)
    }

    @Test(arguments: ["-1", "-6", "-9"])
    func theDecoderReadsWhatTheToolWrites(level: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sample = Samples.noise + Samples.text
        try Self.write(sample, to: directory + "/plain")
        #expect(Self.shell("\(Self.gzipPath!) \(level) -c \(directory)/plain > \(directory)/theirs.gz") == 0)
        let compressed = try Self.read(directory + "/theirs.gz")
        for size in [1, 1_000, 1 << 20] where size > 1 || compressed.count < 400_000 {
            #expect(try decode(compressed, as: "gzip", pieces: size) == sample)
        }
    }

    @Test func theDecoderReadsAToolStreamWithAFileName() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.write(Samples.text, to: directory + "/named.txt")
        #expect(Self.shell("\(Self.gzipPath!) -N -k \(directory)/named.txt") == 0)  // FNAME header field
        #expect(try decode(try Self.read(directory + "/named.txt.gz"), as: "gzip", pieces: 3) == Samples.text)
    }
}
