import FoundationEssentials
import HTTPTesting
import TestSupport
import Testing

/// `asi`'s exit codes for the fault matrix (`Docs/FaultMatrix.md`): a server that breaks the exchange in each way
/// the matrix lists, against the loopback server, with curl's code for the same failure.
@Suite("asi: fault matrix")
struct ASICommandFaultMatrixTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let response: LoopbackResponse
        /// curl's exit code for the same failure (0: the transfer succeeds).
        let exit: Int32
        /// A part of the error message (empty: not checked).
        var message = ""
        /// The body written to stdout when the transfer succeeds.
        var body: [UInt8]? = nil

        var testDescription: String { name }
    }

    static func head(_ lines: String...) -> String {
        "HTTP/1.1 200 OK\r\n" + lines.map { $0 + "\r\n" }.joined() + "\r\n"
    }

    static let rows: [Row] = [
        Row(name: "reset before any response byte", response: .resetWithoutResponse, exit: 56,
            message: "reset by the server while receiving"),
        Row(name: "reset in the middle of the body",
            response: .truncated(body: Array("partial".utf8), announcedLength: 100, reset: true), exit: 56,
            message: "reset by the server while receiving"),
        Row(name: "close in the middle of the head", response: .raw("HTTP/1.1 200 OK\r\nContent-Le"), exit: 8,
            message: "middle of the response head"),
        Row(name: "body longer than its Content-Length",
            response: .raw(head("Content-Length: 3") + "abcdefgh"), exit: 0, body: Array("abc".utf8)),
        Row(name: "conflicting Content-Length fields",
            response: .raw(head("Content-Length: 5", "Content-Length: 6") + "hello"), exit: 8),
        Row(name: "overflowing Content-Length",
            response: .raw(head("Content-Length: 99999999999999999999999") + "hello"), exit: 8),
        Row(name: "chunked beside Content-Length (chunked wins)",
            response: .raw(head("Content-Length: 100", "Transfer-Encoding: chunked") + "2\r\nhi\r\n0\r\n\r\n"),
            exit: 0, body: Array("hi".utf8)),
        Row(name: "overflowing chunk size",
            response: .raw(head("Transfer-Encoding: chunked") + "8000000000000000\r\nhi\r\n0\r\n\r\n"), exit: 8),
        Row(name: "a header line of one megabyte",
            response: .raw(head("X-Big: " + String(repeating: "a", count: 1 << 20)) + "hi"), exit: 8),
        Row(name: "an endless stream of header lines",
            response: LoopbackResponse(actions: [
                .write(Array("HTTP/1.1 200 OK\r\n".utf8)),
                .write(Array(String(repeating: "X-A: b\r\n", count: 1 << 20).utf8)), .stall,
            ]), exit: 8),
        Row(name: "bare LF line endings", response: .raw("HTTP/1.1 200 OK\nContent-Length: 2\n\nhi"), exit: 0,
            body: Array("hi".utf8)),
        Row(name: "a NUL byte in a header value", response: .raw(head("X-A: a\u{0}b", "Content-Length: 2") + "hi"),
            exit: 8, message: "NUL"),
        Row(name: "NUL bytes in the body", response: .raw(head("Content-Length: 3") + "\u{0}a\u{0}"), exit: 0,
            body: [0, 0x61, 0]),
    ]

    @Test(arguments: rows)
    func exitCode(_ row: Row) async throws {
        let response = row.response
        let server = try LoopbackServer { _ in response }
        defer { server.shutdown() }
        let run = try await ASICommandRun.run(["-s", "-S", "-y", "60", server.url("/x").absoluteString])
        #expect(run.status == row.exit, "\(run.stderr)")
        if !row.message.isEmpty { #expect(run.stderr.contains(row.message), "\(run.stderr)") }
        if let body = row.body { #expect(run.stdout == body) }
    }

    @Test func aHundredThousandInterimResponsesEndTheTransfer() async throws {
        // 2.7 MB of 102 heads, then the answer: refused past the interim-response cap (100, Docs/Limits.md) with
        // exit 8; never a hang, and memory stays flat.
        let interim = [UInt8](String(repeating: "HTTP/1.1 102 Processing\r\n\r\n", count: 100_000).utf8)
        let final = Array((Self.head("Content-Length: 2") + "hi").utf8)
        let server = try LoopbackServer { _ in LoopbackResponse(actions: [.write(interim), .write(final)]) }
        defer { server.shutdown() }
        let run = try await ASICommandRun.run(["-s", "-S", server.url("/x").absoluteString])
        #expect(run.status == 8 && run.stderr.contains("interim"), "\(run.status): \(run.stderr)")
        #expect(run.maxResidentKiB < 256 * 1024, "peak \(run.maxResidentKiB) KiB")
    }

    @Test func aRedirectLoopIs47() async throws {
        let server = try LoopbackServer { _ in .redirect(302, to: "/loop") }
        defer { server.shutdown() }
        let url = server.url("/loop").absoluteString
        let run = try await ASICommandRun.run(["-s", "-S", "-L", "--max-redirs", "20", url])
        #expect(run.status == 47, "\(run.stderr)")
        #expect(server.requests.count == 21)
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1:1/x", "gopher://127.0.0.1/"])
    func aRedirectToAnotherSchemeIsRefused(location: String) async throws {
        let server = try LoopbackServer { _ in .redirect(302, to: location) }
        defer { server.shutdown() }
        let run = try await ASICommandRun.run(["-s", "-S", "-L", server.url("/r").absoluteString])
        #expect(run.status == 3, "\(run.stderr)")  // curl: 1 (decision 0019)
        #expect(run.stdout.isEmpty)
        #expect(server.requests.count == 1)
    }
}

/// The fault matrix's rows a real server produces: nginx's `return 444` closes the connection without a response.
@Suite("asi: fault matrix against nginx", .enabled(if: NginxPeer.shouldRun))
struct ASICommandFaultMatrixNginxTests {
    @Test(arguments: [NginxPeer.Server.plain, .tls])
    func aConnectionClosedWithoutAResponseIs52(over server: NginxPeer.Server) async throws {
        try await withNginx { nginx in
            let run = try await ASICommandRun.run(["-s", "-S", "-k", nginx.url("/close", on: server).absoluteString])
            #expect(run.status == 52, "\(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
    }
}
