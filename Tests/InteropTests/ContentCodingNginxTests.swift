import BrotliCodec
import CodecTestSupport
import FoundationEssentials
import GzipCodec
import HTTPCore
import HTTPPipeline
import SocketTransport
import TestSupport
import Testing
import ZstdCodec

/// `br` and `zstd` bodies from a real nginx, compressed by the `brotli` and `zstd` tools and served with
/// `Content-Encoding` (nginx has no brotli or zstd module here), through the whole pipeline and the socket transport.
@Suite("content codings: nginx", .enabled(if: NginxPeer.shouldRun && CompressionTool.shouldRun))
struct ContentCodingNginxTests {
    /// 8 MiB: text, then noise, so that the body is both compressible and past any one buffer.
    static let large = DataPath.text(6 << 20) + DataPath.bytes(2 << 20)

    /// The client `Client.standard()` builds, codec-wise: curl's order.
    static func client() -> Client {
        Client(transport: .posix(), codecs: [.zlib(), .brotli(), .zstd()])
    }

    static func encode(_ bytes: [UInt8], as coding: String) throws -> [UInt8] {
        switch coding {
        case "br": try CompressionTool.brotli(bytes)
        case "zstd": try CompressionTool.zstd(bytes)
        default: try DataPath.gzip(bytes)
        }
    }

    /// Whether sending `request` fails with ``ClientError/Code/compressionFailed``.
    static func failsToDecode(_ request: Request) async -> Bool {
        do {
            let response = try await client().send(request)
            Issue.record("decoded \(response.body.count) bytes")
            return false
        } catch let error as ClientError {
            return error.code == .compressionFailed
        } catch {
            Issue.record("\(error)")
            return false
        }
    }

    @Test(arguments: ["br", "zstd"], [true, false])
    func aLargeBodyIsDecodedIntact(coding: String, atEnd: Bool) async throws {
        let compressed = try Self.encode(Self.large, as: coding)
        try await withDataNginx { nginx in
            var request = Request(url: try nginx.serve(compressed, as: "large.txt", coding: coding))
            request.options.inflatesWhenComplete = atEnd
            let response = try await Self.client().send(request)
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentEncoding] == coding)
            #expect(response.isResponseCompressed)
            #expect(response.body == Self.large ? true : false, "the decoded bytes differ")
        }
    }

    /// Saved to a file, inflated on the way or at the end: the file holds the original, and nothing else is left.
    @Test(arguments: ["br", "zstd"], [true, false])
    func aDownloadIsInflatedIntoTheDestination(coding: String, atEnd: Bool) async throws {
        let compressed = try Self.encode(Self.large, as: coding)
        try await withDataNginx { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let url = try nginx.serve(compressed, as: "large.txt", coding: coding)
            var request = DataPath.download(url, into: directory)
            request.options.inflatesWhenComplete = atEnd
            let response = try await Self.client().send(request)
            #expect(response.status == .ok)
            #expect(LargeBytes.equal(DataPath.read(directory + "/out"), Self.large), "the file's bytes differ")
            #expect(DataPath.listing(directory) == ["out"])
        }
    }

    /// Streamed to the reader: the body arrives in pieces of at most 64 KiB as it is decoded, never as one 8 MiB array.
    @Test(arguments: ["br", "zstd"])
    func aLargeBodyStreamsInPieces(coding: String) async throws {
        let compressed = try Self.encode(Self.large, as: coding)
        try await withDataNginx { nginx in
            let url = try nginx.serve(compressed, as: "large.txt", coding: coding)
            var request = Request(url: url)
            request.options.inflatesWhenComplete = false
            let response = try await Self.client().stream(request)
            var largest = 0
            var received: [UInt8] = []
            for try await piece in response.body {
                largest = max(largest, piece.count)
                received += piece
            }
            #expect(received.count == Self.large.count)
            #expect(received == Self.large ? true : false, "the decoded bytes differ")
            // brotli and zstd are read 64 KiB at a time (a 16 KiB slice of this text decodes to megabytes).
            #expect(largest <= 64 << 10, "decoded \(largest) bytes in one piece")
        }
    }

    @Test(arguments: ["br", "zstd"])
    func aTruncatedBodyIsACompressionError(coding: String) async throws {
        let compressed = try Self.encode(Self.large, as: coding)
        try await withDataNginx { nginx in
            let url = try nginx.serve(Array(compressed.prefix(compressed.count / 2)), as: "cut.txt", coding: coding)
            #expect(await Self.failsToDecode(Request(url: url)))
        }
    }

    @Test(arguments: ["br", "zstd"])
    func aCorruptBodyIsACompressionError(coding: String) async throws {
        var compressed = try Self.encode(Self.large, as: coding)
        for index in 1000..<1064 { compressed[index] = 0xFF }  // in the compressed text: brotli has no checksum
        try await withDataNginx { nginx in
            let url = try nginx.serve(compressed, as: "corrupt.txt", coding: coding)
            #expect(await Self.failsToDecode(Request(url: url)))
            let garbage = try nginx.serve(DataPath.bytes(50_000), as: "garbage.txt", coding: coding)
            #expect(await Self.failsToDecode(Request(url: garbage)))
        }
    }

    /// 64 MiB of zeros in a few kilobytes: stopped by gzip's ratio limit after about 1 MiB.
    @Test(arguments: ["br", "zstd"])
    func aBombIsStoppedAtTheRatioLimit(coding: String) async throws {
        let tool = coding == "br" ? "\(CompressionTool.brotli!) -q 5 -c" : "\(CompressionTool.zstd!) -q -3 -c"
        let bomb = try CompressionTool.output(of: "head -c 67108864 /dev/zero | \(tool)")
        try await withDataNginx { nginx in
            let url = try nginx.serve(bomb, as: "bomb.bin", coding: coding)
            #expect(await Self.failsToDecode(Request(url: url)))
        }
    }

    /// A coding no codec handles is passed through untouched, as before, with its header.
    @Test func anUnknownCodingIsPassedThrough() async throws {
        let body = DataPath.bytes(10_000)
        try await withDataNginx { nginx in
            let response = try await Self.client().send(
                Request(url: try nginx.serve(body, as: "odd.bin", coding: "x-unknown")))
            #expect(response.headerFields[.contentEncoding] == "x-unknown")
            #expect(response.body == body ? true : false, "the body was changed")
        }
    }

    /// Without the codec (a machine without the library offers none), `br` is passed through untouched.
    @Test func withoutTheCodecBrIsPassedThrough() async throws {
        let compressed = try CompressionTool.brotli(Self.large)
        try await withDataNginx { nginx in
            let url = try nginx.serve(compressed, as: "large.txt", coding: "br")
            let absent = BrotliContentCodec(libraryName: "libbrotlidec.so.0-not-installed")
            let response = try await Client(transport: .posix(), codecs: [.zlib(), absent]).send(Request(url: url))
            #expect(response.headerFields[.contentEncoding] == "br")
            #expect(response.body == compressed ? true : false, "the body was changed")
        }
    }

    /// `Content-Encoding: gzip,br` is br applied to gzip: undone last applied first, in any mix of codecs.
    @Test(arguments: [["gzip", "br"], ["gzip", "zstd"], ["br", "zstd"], ["zstd", "gzip"]])
    func stackedCodingsAreUndoneInOrder(codings: [String]) async throws {
        let plain = DataPath.text(1 << 20)
        var encoded = plain
        for coding in codings { encoded = try Self.encode(encoded, as: coding) }
        try await withDataNginx { nginx in
            let url = try nginx.serve(encoded, as: "stacked.txt", coding: codings.joined(separator: ","))
            let response = try await Self.client().send(Request(url: url))
            #expect(response.body == plain ? true : false, "the decoded bytes differ")
        }
    }
}
