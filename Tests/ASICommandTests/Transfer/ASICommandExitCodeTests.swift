import FoundationEssentials
import HTTPTesting
import Testing

/// curl's exit codes for a server that fails mid-exchange, against the loopback server.
@Suite("asi: exit codes for broken exchanges")
struct ASICommandExitCodeTests {
    static func run(_ response: LoopbackResponse, _ extra: [String] = []) async throws -> ASICommandRun {
        let server = try LoopbackServer { _ in response }
        defer { server.shutdown() }
        return try await ASICommandRun.run(["-s", "-S"] + extra + [server.url("/x").absoluteString])
    }

    @Test func aConnectionClosedWithoutAResponseIs52() async throws {
        let run = try await Self.run(.closeWithoutResponse)
        #expect(run.status == 52, "\(run.stderr)")
        #expect(run.stderr.contains("before any response bytes"), "\(run.stderr)")
    }

    @Test func aBodyShorterThanItsContentLengthIs18() async throws {
        let run = try await Self.run(.truncated(body: Array("partial".utf8), announcedLength: 100))
        #expect(run.status == 18, "\(run.stderr)")
        #expect(run.stderr.contains("7 of 100"), "\(run.stderr)")
    }

    @Test func aChunkedBodyCutOffIs18() async throws {
        let run = try await Self.run(.raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel"))
        #expect(run.status == 18, "\(run.stderr)")
    }

    @Test func aMalformedChunkSizeStays8() async throws {
        let run = try await Self.run(.raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"))
        #expect(run.status == 8, "\(run.stderr)")
    }
}
