import FoundationEssentials
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

/// `RequestOptions.lowSpeedLimit` (curl's `--speed-limit`): a trickle that the inactivity timeout never catches
/// ends at the low-speed window; a live transfer above the limit does not (decision 0029).
@Suite struct POSIXTransportLowSpeedTests {
    /// 60 bytes of body, one every 50 ms: never idle for 50 ms, about 20 bytes a second.
    static func trickle() -> LoopbackResponse {
        var actions: [LoopbackResponse.Action] = [.write(Array("HTTP/1.1 200 OK\r\nContent-Length: 60\r\n\r\n".utf8))]
        for _ in 0..<60 { actions += [.body([0x74]), .sleep(.milliseconds(50))] }
        return LoopbackResponse(actions: actions)
    }

    @Test func aTrickleBelowTheLimitTimesOutAtTheWindowAndNotBefore() async throws {
        let server = try LoopbackServer { _ in Self.trickle() }
        defer { server.shutdown() }
        var request = testRequest(server.url("/trickle"))
        request.options.timeout = .seconds(30)
        request.options.lowSpeedLimit = LowSpeedLimit(bytesPerSecond: 1000, duration: .milliseconds(500))
        let started = ContinuousClock.now
        let error = await expectClientError(.timedOut) { _ = try await fetch(POSIXTransport(), request) }
        #expect(error?.message.contains("slower than 1000 bytes per second for 500 ms") == true)
        #expect(ContinuousClock.now - started >= .milliseconds(500))
    }

    @Test func aTrickleAboveTheLimitCompletes() async throws {
        let server = try LoopbackServer { _ in Self.trickle() }
        defer { server.shutdown() }
        var request = testRequest(server.url("/trickle"))
        // Two seconds, so a window holds about 40 bytes and needs 2: a busy machine's pauses do not empty one.
        request.options.lowSpeedLimit = LowSpeedLimit(bytesPerSecond: 1, duration: .seconds(2))
        let (_, body) = try await fetch(POSIXTransport(), request)
        #expect(body.count == 60)
    }

    /// A reader that was not scheduled for longer than a window (a busy machine, a slow consumer) has its window
    /// judged with the bytes that arrived meanwhile, not before reading them.
    @Test func bytesThatArrivedWhileTheReaderWasAwayCountForTheWindow() async throws {
        let rest = [UInt8](repeating: 0x72, count: 1_000)
        let server = try LoopbackServer { _ in
            LoopbackResponse(actions: [
                .write(Array("HTTP/1.1 200 OK\r\nContent-Length: 1001\r\n\r\nf".utf8)), .sleep(.milliseconds(100)),
                .body(rest),
            ])
        }
        defer { server.shutdown() }
        var request = testRequest(server.url("/late"))
        // A window must move 100 bytes; the head and the first byte are fewer.
        request.options.lowSpeedLimit = LowSpeedLimit(bytesPerSecond: 100, duration: .seconds(1))
        let response = try await POSIXTransport().send(request, context: testContext())
        var iterator = response.body.makeAsyncIterator()
        var received = try await iterator.next() ?? []
        // Away for two windows; the server sends the rest 100 ms after the first byte.
        try await Task.sleep(for: .seconds(2))
        while let chunk = try await iterator.next() { received += chunk }
        #expect(received.count == 1_001)
    }

    @Test func aStallEndsAtTheWindowWhenItIsShorterThanTheTimeout() async throws {
        let server = try LoopbackServer { _ in
            LoopbackResponse(actions: [.write(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab".utf8)), .stall])
        }
        defer { server.shutdown() }
        var request = testRequest(server.url("/stall"))
        request.options.timeout = .seconds(30)
        request.options.lowSpeedLimit = LowSpeedLimit(bytesPerSecond: 1, duration: .milliseconds(300))
        let error = await expectClientError(.timedOut) { _ = try await fetch(POSIXTransport(), request) }
        #expect(error?.message.contains("slower than") == true)
    }

    @Test func theWindowJudgesOnlyWhenItEnds() throws {
        let limit = LowSpeedLimit(bytesPerSecond: 100, duration: .seconds(1))
        var window = LowSpeedWindow(limit: limit, now: 0)
        #expect(window.minimumBytes == 100)
        try window.record(10, now: 999_999_999)  // below, but the window has not ended
        #expect(throws: ClientError.self) { try window.record(10, now: 1_000_000_000) }
        var fast = LowSpeedWindow(limit: limit, now: 0)
        try fast.record(100, now: 1_000_000_000)  // at the limit: the next window starts
        #expect(fast.bytes == 0 && fast.end == 2_000_000_000)
        #expect(LowSpeedLimit(bytesPerSecond: 0, duration: .seconds(1)).bytesPerSecond == 1)
    }
}

/// Where a wait gives up: at the window's end while it is short, at the next window's end once it has its share.
@Suite struct LowSpeedWindowTests {
    @Test func theFailureDeadlineMovesOnceTheWindowHasItsShare() throws {
        var window = LowSpeedWindow(limit: LowSpeedLimit(bytesPerSecond: 100, duration: .seconds(1)), now: 0)
        #expect(try window.failureDeadline(now: 10) == 1_000_000_000)
        try window.record(100, now: 20)
        #expect(try window.failureDeadline(now: 30) == 2_000_000_000)
        // Past the end with its share: the next window starts then, and fails a window later.
        #expect(try window.failureDeadline(now: 1_500_000_000) == 2_500_000_000)
        #expect(throws: ClientError.self) { try window.failureDeadline(now: 2_500_000_000) }
    }
}
