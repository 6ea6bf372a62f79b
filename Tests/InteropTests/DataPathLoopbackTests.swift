import CodecTestSupport
import FoundationEssentials
import GzipCodec
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import TestSupport
import Testing

/// Faults a real server does not produce on demand: truncated and corrupt gzip, a decompression bomb, a
/// connection that closes or stalls in the middle of a resumed download.
@Suite("data path: loopback faults")
struct DataPathLoopbackTests {
    static let text = DataPath.text(400_000)
    static let binary = DataPath.bytes(1 << 20)

    /// Serves `content` as a static file would: 200, or 206 from `Range: bytes=N-`.
    static func ranged(
        _ request: RecordedRequest, _ content: [UInt8], headers: [(String, String)] = []
    )
        -> LoopbackResponse
    {
        guard let range = request.header("Range"), let start = Int(range.dropFirst(6).dropLast()) else {
            return .status(200, headers: headers, body: content)
        }
        return .status(
            206, headers: headers + [("Content-Range", "bytes \(start)-\(content.count - 1)/\(content.count)")],
            body: Array(content[start...]))
    }

    static func head(_ status: String, _ headers: [(String, String)]) -> [UInt8] {
        Array(("HTTP/1.1 \(status)\r\n" + headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n").utf8)
    }

    @Test(arguments: [true, false])
    func aTruncatedGzipBodyFails(atEnd: Bool) async throws {
        let cut = Array(try DataPath.gzip(Self.text).dropLast(100))
        let server = try LoopbackServer { _ in .status(200, headers: [("Content-Encoding", "gzip")], body: cut) }
        defer { server.shutdown() }
        var request = Request(url: server.url("/t"))
        request.options.inflatesWhenComplete = atEnd
        let error = await #expect(throws: ClientError.self) { try await DataPath.client().send(request) }
        #expect(error?.code == .compressionFailed)
    }

    @Test func aTruncatedGzipDownloadLeavesNoFile() async throws {
        let cut = Array(try DataPath.gzip(Self.text).dropLast(9))
        let server = try LoopbackServer { _ in .status(200, headers: [("Content-Encoding", "gzip")], body: cut) }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let error = await #expect(throws: ClientError.self) {
            try await DataPath.client().send(DataPath.download(server.url("/t"), into: directory))
        }
        #expect(error?.code == .compressionFailed)
        #expect(DataPath.listing(directory).isEmpty)
    }

    @Test func aCorruptGzipBodyFails() async throws {
        var corrupt = try DataPath.gzip(Self.text)
        for index in stride(from: 100, to: corrupt.count - 100, by: 997) { corrupt[index] ^= 0xA5 }
        let body = corrupt
        let server = try LoopbackServer { _ in .status(200, headers: [("Content-Encoding", "gzip")], body: body) }
        defer { server.shutdown() }
        let error = await #expect(throws: ClientError.self) {
            try await DataPath.client().send(Request(url: server.url("/c")))
        }
        #expect(error?.code == .compressionFailed)
    }

    @Test(arguments: [true, false])
    func aDecompressionBombIsStopped(atEnd: Bool) async throws {
        let encoder = try ZlibContentCodec.zlib().makeEncoder(for: "gzip")
        var bomb: [UInt8] = []
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<256 { bomb += try encoder.encode(zeros) }  // 256 MiB of zeros
        bomb += try encoder.finish()
        let body = bomb
        let server = try LoopbackServer { _ in .status(200, headers: [("Content-Encoding", "gzip")], body: body) }
        defer { server.shutdown() }
        var request = Request(url: server.url("/bomb"))
        request.options.inflatesWhenComplete = atEnd
        let error = await #expect(throws: ClientError.self) { try await DataPath.client().send(request) }
        #expect(error?.code == .compressionFailed)
    }

    @Test func anEarlyCloseKeepsThePartialFileAndTheNextRequestResumesIt() async throws {
        let server = try LoopbackServer { request in
            request.header("Range") == nil
                ? .truncated(body: Array(Self.binary.prefix(300_000)), announcedLength: Self.binary.count)
                : Self.ranged(request, Self.binary)
        }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let request = DataPath.download(server.url("/big"), into: directory, resume: true)
        await #expect(throws: ClientError.self) { try await DataPath.client().send(request) }
        #expect(DataPath.listing(directory) == ["part"])
        let partial = try #require(DataPath.read(directory + "/part"))
        #expect(LargeBytes.equal(partial, Array(Self.binary.prefix(partial.count))))
        let response = try await DataPath.client().send(request)
        #expect(response.status == .partialContent)
        #expect(server.requests.last?.header("Range") == "bytes=\(partial.count)-")
        #expect(LargeBytes.equal(DataPath.read(directory + "/out"), Self.binary))
        #expect(DataPath.listing(directory) == ["out"])
    }

    @Test func aTimeoutRetryMidDownloadResumesWhereItStopped() async throws {
        let server = try LoopbackServer { request in
            guard request.header("Range") == nil else { return Self.ranged(request, Self.binary) }
            return LoopbackResponse(actions: [
                .write(Self.head("200 OK", [("Content-Length", String(Self.binary.count))])),
                .body(Array(Self.binary.prefix(250_000))), .stall,
            ])
        }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var request = DataPath.download(server.url("/big"), into: directory, resume: true)
        // The stall lasts until the server shuts down, so the first attempt always times out. On a loaded machine
        // a starved process can also time out an attempt that was not stalled (the 2 s pass while nobody runs), so
        // the request has retries to spare; each retry must still resume from the bytes stored so far.
        request.options.timeout = .seconds(2)
        request.options.retriesOnTimeout = 5
        let response = try await DataPath.client().send(request)
        #expect(response.info.retryCount >= 1)
        let ranges = server.requests.map { $0.header("Range") }
        #expect(ranges.first == .some(nil))
        // Each retry asks for the rest after what was stored (no Range while nothing was: an attempt starved before
        // its first byte); the first resumed one starts at most at the 250,000 bytes sent before the stall, and
        // none goes back.
        let starts = ranges.dropFirst().map { range in range.flatMap { Int($0.dropFirst(6).dropLast()) } ?? 0 }
        #expect(starts.first { $0 > 0 }.map { $0 <= 250_000 } == true, "\(ranges)")
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 }, "\(ranges)")
        #expect(ranges.count == response.info.retryCount + 1)
        #expect(LargeBytes.equal(DataPath.read(directory + "/out"), Self.binary))
    }

    @Test func aResumed206OfCompressedBytesIsInflatedWhole() async throws {
        let compressed = try DataPath.gzip(Self.text)
        let server = try LoopbackServer { Self.ranged($0, compressed, headers: [("Content-Encoding", "gzip")]) }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try DataPath.write(Array(compressed.prefix(compressed.count / 2)), to: directory + "/part")
        var request = DataPath.download(server.url("/text"), into: directory, resume: true)
        request.options.inflatesWhenComplete = false  // resumable downloads inflate at the end anyway
        let response = try await DataPath.client().send(request)
        #expect(response.status == .partialContent)
        #expect(LargeBytes.equal(DataPath.read(directory + "/out"), Self.text))
        #expect(DataPath.listing(directory) == ["out"])
    }
}
