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

/// The one-shot and file helpers (`ASIDataCompressor`, `ASIDataDecompressor`) against the `gzip` tool.
@Suite(.enabled(if: installedGzip != nil))
struct ZlibFileHelperTests {
    @Test func filesRoundTripThroughTheTool() throws {
        let directory = try GzipToolInteropTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let codec = ZlibContentCodec.zlib()
        let sample = Samples.noise + Samples.text
        try GzipToolInteropTests.write(sample, to: directory + "/plain")
        try codec.compressFile(atPath: directory + "/plain", toPath: directory + "/ours.gz")
        #expect(GzipToolInteropTests.shell("\(installedGzip!) -dc \(directory)/ours.gz > \(directory)/back") == 0)
        #expect(try GzipToolInteropTests.read(directory + "/back") == sample)
        #expect(GzipToolInteropTests.shell("\(installedGzip!) -c \(directory)/plain > \(directory)/theirs.gz") == 0)
        try codec.decompressFile(atPath: directory + "/theirs.gz", toPath: directory + "/again")
        #expect(try GzipToolInteropTests.read(directory + "/again") == sample)
        #expect(try codec.decompress(try codec.compress(sample)) == sample)
        #expect(try codec.decompress(try codec.compress(sample, encoding: "deflate"), encoding: "deflate") == sample)
    }

    @Test func aCorruptFileLeavesNoOutput() throws {
        let directory = try GzipToolInteropTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let codec = ZlibContentCodec.zlib()
        try GzipToolInteropTests.write(Array(try codec.compress(Samples.text).dropLast(5)), to: directory + "/cut.gz")
        let error = #expect(throws: ClientError.self) {
            try codec.decompressFile(atPath: directory + "/cut.gz", toPath: directory + "/out")
        }
        #expect(error?.code == .compressionFailed)
        #expect(!FileManager.default.fileExists(atPath: directory + "/out"))
        let missing = #expect(throws: ClientError.self) {
            try codec.compressFile(atPath: directory + "/none", toPath: directory + "/out")
        }
        #expect(missing?.code == .storageFailed)
    }
}
