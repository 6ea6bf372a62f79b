import FoundationEssentials
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Threads, name resolution and connect timeouts.
@Suite struct POSIXTransportLifecycleTests {
    @Test func loopStopsWhenTheLastReferenceGoes() async throws {
        let server = try LoopbackServer { _ in .ok("x") }
        defer { server.shutdown() }
        weak var weakLoop: EventLoop?
        do {
            let transport = POSIXTransport()
            _ = try await fetch(transport, testRequest(server.url("/a")))
            weakLoop = try transport.core.loops.next()
            #expect(weakLoop != nil)
        }
        // The loop thread holds its loop until it ends; the idle connection closed with the transport.
        #expect(await eventually { weakLoop == nil })
        #expect(await eventually { server.openConnectionCount == 0 })
    }

    @Test func noThreadStartsBeforeTheFirstRequest() {
        let transport = POSIXTransport()
        #expect(transport.core.loops.startedLoopCount == 0)
        #expect(transport.core.resolver.threadCount == 0)
    }

    @Test func hostNamesAreResolvedAndEveryAddressIsTried() async throws {
        // `localhost` usually resolves to ::1 and 127.0.0.1; the server listens on 127.0.0.1 only, so an IPv6
        // attempt (if any) is refused and the next address is tried.
        let server = try LoopbackServer { request in .ok(request.header("Host") ?? "") }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (_, body) = try await fetch(transport, testRequest(URL(string: "http://localhost:\(server.port)/n")!))
        #expect(body == Array("localhost:\(server.port)".utf8))
        #expect(transport.core.resolver.threadCount >= 1)
    }

    @Test func connectTimeoutApplies() async throws {
        // A listener whose accept queue is full drops further SYNs, so a connect hangs until the timeout.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try #require(withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        } == 0)
        try #require(listen(listener, 0) == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        // Fill the accept queue.
        var fillers: [Int32] = []
        defer { fillers.forEach { close($0) } }
        for _ in 0..<2 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
            fillers.append(filler)
        }
        usleep(50_000)
        var request = testRequest(URL(string: "http://127.0.0.1:\(port)/")!, timeout: .seconds(30))
        request.options.connectTimeout = .milliseconds(300)
        let error = await expectClientError(.timedOut) { _ = try await fetch(POSIXTransport(), request) }
        #expect(error?.message.contains("300 ms") == true)
    }
}
