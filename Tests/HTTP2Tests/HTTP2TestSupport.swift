import FoundationEssentials
import Glibc
import HTTP2
import HTTPCore
import Logging
import SocketTransport
import Synchronization
import TestSupport

/// A transport speaking HTTP/2 beside HTTP/1.1, as an app configures it.
func http2Transport(priorKnowledge: Bool = false, maxConnectionsPerHost: Int = 8) -> POSIXTransport {
    POSIXTransport(configuration: .init(
        maxConnectionsPerHost: maxConnectionsPerHost,
        protocols: [.http2(.init(speaksCleartextWithPriorKnowledge: priorKnowledge))]))
}

/// A request trusting the test CA, with the tests' generous timeout.
func h2Request(
    _ url: URL, method: HTTPRequest.Method = .get, body: RequestBody? = nil, certificates: TestCertificates
) -> Request {
    var request = testRequest(url, method: method, body: body)
    request.options.tls = TLSOptions(trustedCAFile: certificates.caPath)
    return request
}

/// `count` GETs of `url` at once, each collected; returns the responses' versions, statuses and connection ids.
func parallelGETs(
    _ count: Int, of url: URL, through transport: POSIXTransport, certificates: TestCertificates,
    width: Int? = nil
) async throws -> [(version: HTTPVersion, status: Int, connection: UInt64?, body: [UInt8])] {
    try await withThrowingTaskGroup(of: (HTTPVersion, Int, UInt64?, [UInt8]).self) { group in
        var results: [(version: HTTPVersion, status: Int, connection: UInt64?, body: [UInt8])] = []
        var started = 0
        func start() {
            group.addTask {
                let (response, body) = try await fetch(transport, h2Request(url, certificates: certificates))
                return (response.version, response.status.code, response.connectionID, body)
            }
            started += 1
        }
        while started < min(count, width ?? count) { start() }
        while let result = try await group.next() {
            results.append(result)
            if started < count { start() }
        }
        return results
    }
}

/// Reads a whole body, checking every chunk against `/big.bin` as it arrives; returns the byte count.
func readBig(_ response: Response) async throws -> (count: Int, intact: Bool) {
    var count = 0
    var intact = true
    for try await chunk in response.body {
        if intact && !HTTP2NginxPeer.matchesBig(chunk, at: count) { intact = false }
        count += chunk.count
    }
    return (count, intact)
}

/// The size of the upload tests' body.
let twentyMiBCount = 20 * 1024 * 1024

/// The upload tests' byte at `offset`. The body is made and checked a chunk at a time, never held whole: other
/// tests in this process measure their own peak memory (S3's flat-memory upload), and 20 MiB arrays here showed up
/// in their figure.
/// - Parameter offset: The byte's place in the body.
/// - Returns: The byte.
func twentyMiBByte(at offset: Int) -> UInt8 { UInt8(truncatingIfNeeded: offset &* 7 &+ offset >> 9) }

/// 20 MiB of deterministic bytes to upload, made 256 KiB at a time on every (re)play.
/// - Returns: A replayable streamed body of ``twentyMiBCount`` bytes.
func twentyMiBBody() -> RequestBody {
    .stream(length: Int64(twentyMiBCount), isReplayable: true) {
        let cursor = ChunkCursor()
        return RequestBody.Chunks {
            cursor.offset.withLock { start -> [UInt8]? in
                guard start < twentyMiBCount else { return nil }
                let end = min(start + 256 * 1024, twentyMiBCount)
                defer { start = end }
                return (start..<end).map(twentyMiBByte(at:))
            }
        }
    }
}

/// Whether `chunk` holds the upload body's bytes from `offset` on.
/// - Parameters:
///   - chunk: Bytes received.
///   - offset: Where in the body they start.
/// - Returns: Whether every byte is the body's.
func matchesTwentyMiB(_ chunk: some Sequence<UInt8>, at offset: Int) -> Bool {
    zip(chunk, offset...).allSatisfy { $0 == twentyMiBByte(at: $1) }
}

/// Reads a stored upload back 1 MiB at a time and checks it against the body.
/// - Parameter path: The file.
/// - Returns: Its length and whether every byte is the body's, or `nil` when it cannot be read.
func readTwentyMiB(atPath path: String) -> (count: Int, intact: Bool)? {
    readChecked(atPath: path) { matchesTwentyMiB($0, at: $1) }
}

/// Reads a file 1 MiB at a time, checking each piece as it is read.
/// - Parameters:
///   - path: The file.
///   - matching: Whether a piece holds the expected bytes from the offset on.
/// - Returns: Its length and whether every piece matched, or `nil` when it cannot be read.
func readChecked(atPath path: String, matching: ([UInt8], Int) -> Bool) -> (count: Int, intact: Bool)? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var count = 0
    var intact = true
    while true {
        let read = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if read < 0 && errno == EINTR { continue }
        guard read >= 0 else { return nil }
        if read == 0 { return (count, intact) }
        if intact && !matching(Array(buffer[..<read]), count) { intact = false }
        count += read
    }
}

/// Where a streamed upload body has got to.
private final class ChunkCursor: Sendable {
    let offset = Mutex(0)
}
