import FoundationEssentials
import Glibc
import HTTPTesting
import TestSupport
import Testing

/// `asi` against the caps of `Docs/Limits.md`: an endless `-b` file is skipped after 32 MiB, and a response head
/// past the transport's limit fails the transfer.
@Suite("asi: limits")
struct ASICommandLimitsTests {
    @Test func anEndlessCookieFileIsSkippedAndTheOthersStillApply() async throws {
        let server = try LoopbackServer { request in
            .ok(request.headers.first { $0.name.lowercased() == "cookie" }?.value ?? "no cookie")
        }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let jar = directory + "/jar.txt"
        try Data("127.0.0.1\tFALSE\t/\tFALSE\t0\tkept\tyes\n".utf8).write(to: URL(filePath: jar))
        // The warning shows with -v (asi logs warnings only then).
        let run = try await ASICommandRun.run(["-v", "-b", "/dev/zero", "-b", jar, server.url("/").absoluteString])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output == "kept=yes")
        #expect(run.stderr.contains("Skipped a cookie file larger than 32 MiB"), "\(run.stderr)")
    }

    @Test func aHundredAndOneInterimResponsesFailTheTransfer() async throws {
        let interim = String(repeating: "HTTP/1.1 102 Processing\r\n\r\n", count: 101)
        let server = try LoopbackServer { _ in .raw(interim + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") }
        defer { server.shutdown() }
        let run = try await ASICommandRun.run([server.url("/").absoluteString])
        #expect(run.status != 0)
        #expect(run.stderr.contains("more than 100 interim (1xx) responses"), "\(run.stderr)")
    }
}
