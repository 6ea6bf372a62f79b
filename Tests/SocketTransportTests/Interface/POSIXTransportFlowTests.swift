import FoundationEssentials
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Bandwidth limiting and cancellation while the body goes out.
@Suite struct POSIXTransportFlowTests {
    @Test func bandwidthLimiterIsAskedBeforeEveryBodyReadAndWrite() async throws {
        let payload = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
        let server = try LoopbackServer { request in
            .slowBody(request.body, firstPart: 10, pause: .milliseconds(10))
        }
        defer { server.shutdown() }
        let limiter = RecordingBandwidthLimiter.chunked(10_000)
        let context = RequestContext(progress: DiscardingProgress(), bandwidth: limiter, logger: testContext().logger)
        let request = testRequest(server.url("/echo"), method: .post, body: .bytes(payload))
        let (_, body) = try await fetch(POSIXTransport(), request, context: context)
        #expect(body == payload)
        #expect(server.requests.first?.body == payload)
        #expect(limiter.askCount(.upload) >= 10)
        // The reads of the head are asked for too, so every body byte came in a grant of at most 10,000 bytes.
        #expect(limiter.askCount(.download) >= 10)
        #expect(limiter.calls.allSatisfy { if case .asked(let wanted, _) = $0 { wanted >= 1 } else { true } })
    }

    @Test func cancellationMidUploadClosesTheConnection() async throws {
        // A listener that never accepts: the kernel completes the handshake, then the socket buffers fill.
        let (listener, port) = try silentListener()
        defer { close(listener) }
        let body = RequestBody.bytes(Array(repeating: UInt8(1), count: 64 * 1024 * 1024))
        let transport = POSIXTransport()
        let key = PoolKey(scheme: "http", host: "127.0.0.1", port: port)
        let task = Task {
            try await fetch(transport, testRequest(URL(string: "http://127.0.0.1:\(port)/up")!, method: .put, body: body))
        }
        #expect(await eventually { transport.core.pool.openCount(key) == 1 })
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(transport.core.pool.openCount(key) == 0)
    }
}

/// A TCP listener on 127.0.0.1 that never calls `accept`.
func silentListener() throws -> (Int32, Int) {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
    }
    guard bound == 0, listen(listener, 16) == 0 else { throw SyscallError.last("listen") }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    return (listener, Int(UInt16(bigEndian: address.sin_port)))
}

extension POSIXTransportFlowTests {
    @Test func earlyAnswerDuringAnUploadIsReturned() async throws {
        // The server reads the head, answers 413 and closes without reading the body.
        let (listener, port) = try silentListener()
        defer { close(listener) }
        try NativeThread.start(name: "test-early") {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), read(client, &byte, 1) == 1 { head.append(byte) }
            let answer = Array("HTTP/1.1 413 Content Too Large\r\nConnection: close\r\nContent-Length: 4\r\n\r\nbig!".utf8)
            _ = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            usleep(50_000)
            close(client)
        }
        let body = RequestBody.bytes(Array(repeating: UInt8(1), count: 32 * 1024 * 1024))
        let request = testRequest(URL(string: "http://127.0.0.1:\(port)/up")!, method: .put, body: body)
        let (response, answer) = try await fetch(POSIXTransport(), request)
        #expect(response.status.code == 413)
        #expect(answer == Array("big!".utf8))
    }
}
