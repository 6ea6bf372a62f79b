import FoundationEssentials
import HTTP2
import HTTPCore
import Logging
import SocketTransport
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

/// 20 MiB of deterministic bytes to upload.
let twentyMiB: [UInt8] = (0..<(20 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
