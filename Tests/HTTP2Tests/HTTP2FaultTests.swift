import FoundationEssentials
import HTTP2
import HTTPCore
import SocketTransport
import TestSupport
import Testing

/// The HTTP2 plug-in against a scripted h2 server (python's `h2`): a reset stream fails alone, a `GOAWAY` in the
/// middle of a burst is retried on a new connection, a server that never sends SETTINGS times out, and an
/// oversized head resets its stream.
@Suite("HTTP/2 faults", .enabled(if: H2FaultServer.shouldRun))
struct HTTP2FaultTests {
    private func withServer(_ mode: H2FaultServer.Mode, _ body: (H2FaultServer) async throws -> Void) async throws {
        try await withPeer(start: { try H2FaultServer.start(mode) }, stop: { $0.stop() }, body)
    }

    @Test func aResetStreamFailsAloneWithATypedError() async throws {
        try await withServer(.normal) { server in
            let transport = http2Transport(priorKnowledge: true)
            let paths = ["/ok?1", "/ok?2", "/reset", "/ok?3", "/ok?4"]
            let outcomes = try await withThrowingTaskGroup(of: (String, Result<Response, any Error>).self) { group in
                for path in paths {
                    let url = server.url(path)
                    group.addTask {
                        do {
                            let (response, _) = try await fetch(transport, testRequest(url))
                            return (path, .success(response))
                        } catch {
                            return (path, .failure(error))
                        }
                    }
                }
                var outcomes: [String: Result<Response, any Error>] = [:]
                for try await (path, outcome) in group { outcomes[path] = outcome }
                return outcomes
            }
            guard case .failure(let error as ClientError) = outcomes["/reset"] else {
                let outcome = String(describing: outcomes["/reset"])
                Issue.record("the reset stream did not fail with a ClientError: \(outcome)")
                return
            }
            #expect(error.code == .streamReset)
            let others = paths.filter { $0 != "/reset" }.compactMap { try? outcomes[$0]?.get() }
            #expect(others.count == 4)
            #expect(others.allSatisfy { $0.status == .ok && $0.version == .http2 })
            #expect(Set(others.map(\.connectionID)).count == 1)
            #expect(server.connections == 1)
            try await transport.shutdown()
        }
    }

    @Test func streamsAboveAGoAwayAreSentAgainOnANewConnection() async throws {
        try await withServer(.goAway(after: 3)) { server in
            let transport = http2Transport(priorKnowledge: true)
            // One request first, so the burst shares the connection that will go away.
            _ = try await fetch(transport, testRequest(server.url("/ok?first")))
            let results = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    let url = server.url("/ok?\(index)")
                    group.addTask {
                        let (response, body) = try await fetch(transport, testRequest(url))
                        return response.status == .ok && body == Array("ok".utf8) ? 1 : 0
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(results == 20)
            #expect(server.connections >= 2)
            try await transport.shutdown()
        }
    }

    @Test func aServerThatNeverSendsSettingsTimesOut() async throws {
        try await withServer(.silent) { server in
            let transport = http2Transport(priorKnowledge: true)
            await #expect(throws: ClientError.self) {
                _ = try await fetch(transport, testRequest(server.url("/ok"), timeout: .seconds(2)))
            }
            do {
                _ = try await fetch(transport, testRequest(server.url("/ok"), timeout: .seconds(2)))
            } catch let error as ClientError {
                #expect(error.code == .timedOut)
            }
            try await transport.shutdown()
        }
    }

    @Test func anOversizedHeadResetsItsStreamOnly() async throws {
        try await withServer(.normal) { server in
            let transport = http2Transport(priorKnowledge: true)
            do {
                _ = try await fetch(transport, testRequest(server.url("/flood")))
                Issue.record("a 100 KiB head was accepted")
            } catch let error as ClientError {
                #expect(error.code == .protocolViolation)
            }
            let (response, body) = try await fetch(transport, testRequest(server.url("/ok")))
            #expect(response.status == .ok)
            #expect(body == Array("ok".utf8))
            try await transport.shutdown()
        }
    }
}
