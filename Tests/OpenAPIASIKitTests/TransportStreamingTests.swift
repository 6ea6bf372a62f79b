import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTypes
import OpenAPIASIKit
import OpenAPIRuntime
import TestSupport
import Testing

/// Bodies stream both ways through the transport against real peers: a large upload and download through nginx
/// in flat memory, and uploads and chunked downloads through httpbin.
@Suite("ASIKitTransport streaming")
struct TransportStreamingTests {
    static let chunkSize = 256 * 1024

    /// The byte at `offset` of the generated body.
    static func byte(at offset: Int) -> UInt8 { UInt8(truncatingIfNeeded: offset / chunkSize &* 31 &+ 7) }

    /// A body of `count` bytes made chunk by chunk while it is sent (each chunk filled with one value).
    static func generated(_ count: Int, knownLength: Bool) -> HTTPBody {
        HTTPBody(
            GeneratedChunks(count: count, chunkSize: chunkSize), length: knownLength ? .known(Int64(count)) : .unknown,
            iterationBehavior: .single)
    }

    /// The process's resident memory in bytes, from /proc/self/status.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// 256 MiB up to nginx (WebDAV PUT) and back down, each way pulled and delivered chunk by chunk: resident
    /// memory grows by far less than the body (it would grow by the whole body if either side buffered it).
    @Test(.enabled(if: NginxPeer.shouldRun), arguments: [true, false])
    func aLargeBodyStreamsBothWaysThroughNginxInFlatMemory(knownLength: Bool) async throws {
        let count = 256 << 20
        try await withDataNginx { nginx in
            let (transport, client) = Fixture.transport()
            let before = Self.residentBytes()
            let name = knownLength ? "known.bin" : "chunked.bin"
            let (put, _) = try await transport.send(
                HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/dav/" + name),
                body: Self.generated(count, knownLength: knownLength), baseURL: nginx.url(""), operationID: "put")
            #expect(put.status == .created)
            let peakAfterUpload = Self.residentBytes()

            let (get, body) = try await transport.send(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/dav/" + name), body: nil,
                baseURL: nginx.url(""), operationID: "get")
            #expect(get.status == .ok)
            var received = 0
            var chunks = 0
            var peak = peakAfterUpload
            var mismatches = 0
            for try await chunk in try #require(body) {
                if chunk.first != Self.byte(at: received) || chunk.last != Self.byte(at: received + chunk.count - 1) {
                    mismatches += 1
                }
                received += chunk.count
                chunks += 1
                if chunks % 64 == 0 { peak = max(peak, Self.residentBytes()) }
            }
            #expect(received == count)
            #expect(mismatches == 0)
            #expect(chunks > 1)
            #expect(peak - before < 128 << 20, "resident memory grew by \((peak - before) >> 20) MiB")
            try await client.shutdown()
        }
    }

    /// A streamed upload of known and unknown length arrives whole at httpbin, which echoes it.
    @Test(.enabled(if: HttpbinPeer.shouldRun), arguments: [true, false])
    func anUploadStreamsToHttpbin(knownLength: Bool) async throws {
        try await withHttpbin { httpbin in
            let (transport, client) = Fixture.transport()
            let text = String(repeating: "streamed through ASIKit. ", count: 40_000)  // ~1 MB in 64 KiB pieces
            let pieces = stride(from: 0, to: text.utf8.count, by: 65_536).map {
                Array(Array(text.utf8)[$0..<min($0 + 65_536, text.utf8.count)])
            }
            let body = HTTPBody(
                CountedChunks(chunks: pieces, iterations: IterationCounter()),
                length: knownLength ? .known(Int64(text.utf8.count)) : .unknown, iterationBehavior: .multiple)
            let (response, echo) = try await transport.send(
                HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/anything"), body: body,
                baseURL: httpbin.url(""), operationID: "echo")
            #expect(response.status == .ok)
            let json = try await Fixture.text(echo)
            #expect(json.contains("\"data\": \"\(text)\""))
            try await client.shutdown()
        }
    }

    /// httpbin's `/stream-bytes` (at most 100 KiB) sends a chunked body; it reaches the caller in several pieces,
    /// all of it.
    @Test(.enabled(if: HttpbinPeer.shouldRun))
    func aChunkedDownloadStreamsFromHttpbin() async throws {
        try await withHttpbin { httpbin in
            let (transport, client) = Fixture.transport()
            let (response, body) = try await transport.send(
                HTTPRequest(
                    method: .get, scheme: nil, authority: nil, path: "/stream-bytes/100000?seed=7&chunk_size=1000"),
                body: nil, baseURL: httpbin.url(""), operationID: "bytes")
            #expect(response.status == .ok)
            var received = 0
            var chunks = 0
            for try await chunk in try #require(body) {
                received += chunk.count
                chunks += 1
            }
            #expect(received == 100_000)
            #expect(chunks > 1)
            try await client.shutdown()
        }
    }
}

/// `count` bytes in chunks of `chunkSize`, each filled with ``TransportStreamingTests/byte(at:)`` of its offset,
/// made only when asked for.
struct GeneratedChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let count: Int
    let chunkSize: Int

    func makeAsyncIterator() -> Iterator { Iterator(count: count, chunkSize: chunkSize) }

    struct Iterator: AsyncIteratorProtocol {
        let count: Int
        let chunkSize: Int
        var offset = 0

        init(count: Int, chunkSize: Int) {
            self.count = count
            self.chunkSize = chunkSize
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard offset < count else { return nil }
            let size = Swift.min(chunkSize, count - offset)
            defer { offset += size }
            return Array(repeating: TransportStreamingTests.byte(at: offset), count: size)[...]
        }
    }
}
