import HTTP2
import HTTPCore
import SocketTransport
import TestSupport
import Testing

/// How a large HTTP/2 body reaches its reader (decision 0031, fifth addendum): the `DATA` frames of a socket read are
/// gathered into one chunk, so a download is not read, handed over and written one 8 KiB frame at a time, and no
/// chunk grows past 64 KiB.
@Suite("HTTP/2 body chunks", .enabled(if: HTTP2NginxPeer.shouldRun))
struct HTTP2BodyChunkTests {
    /// nginx sends `DATA` frames of at most 8 KiB (`http2_chunk_size`'s default) in 16 KiB TLS records, so every
    /// socket read holds more than one frame: a body handed over a frame at a time comes in at least one chunk per
    /// 8 KiB, a gathered one in fewer, whatever the timing. The first 16 MiB of `/big.bin` are read, then the rest
    /// is given up (the stream is reset).
    @Test func framesOfOneReadReachTheReaderAsOneChunk() async throws {
        try await withHTTP2Nginx { nginx in
            let transport = http2Transport()
            let response = try await transport.send(
                h2Request(nginx.url("/big.bin"), certificates: nginx.certificates), context: testContext())
            #expect(response.version == .http2)
            var count = 0
            var chunks = 0
            var largest = 0
            var intact = true
            let wanted = 16 * 1024 * 1024
            for try await chunk in response.body {
                if intact && !HTTP2NginxPeer.matchesBig(chunk, at: count) { intact = false }
                count += chunk.count
                chunks += 1
                largest = max(largest, chunk.count)
                if count >= wanted { break }
            }
            await response.body.discard()
            #expect(count >= wanted)
            #expect(intact)
            let frames = count / (8 * 1024)
            #expect(chunks < frames, "\(chunks) chunks for at least \(frames) DATA frames")
            #expect(largest > 8 * 1024, "no chunk held more than one frame")
            #expect(largest <= 64 * 1024, "a chunk of \(largest) bytes")
            try await transport.shutdown()
        }
    }
}
