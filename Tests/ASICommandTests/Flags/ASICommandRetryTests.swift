import FoundationEssentials
import HTTPTesting
import Synchronization
import TestSupport
import Testing

/// `asi --retry` and its companions beside curl's, in the same test, against servers answering 503 with
/// `Retry-After` (the loopback server, which counts the attempts) and against httpbin's `/status/503`.
@Suite("asi: --retry as curl's", .serialized)
struct ASICommandRetryTests {
    static let curl = ChildProcess.find("curl")

    /// What one client did against a fresh server: its exit status, the `-o` file and the requests the server saw.
    struct Outcome: Equatable, CustomStringConvertible {
        var status: Int32
        var output: String
        var requests: Int
        var description: String { "exit \(status), \(requests) requests, output \(output.debugDescription)" }
    }

    /// Runs curl and then asi with `arguments` (plus `-s -S -o FILE URL`), each against its own server answering
    /// `answer(n)` to its `n`th request (from 0).
    static func compare(
        _ arguments: [String], answer: @escaping @Sendable (Int) -> LoopbackResponse
    ) async throws -> (curl: Outcome, asi: Outcome) {
        let curl = try #require(Self.curl, "curl is needed")
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func outcome(_ run: (String, URL) async throws -> Int32) async throws -> Outcome {
            let count = Atomic<Int>(0)
            let server = try LoopbackServer { _ in answer(count.add(1, ordering: .relaxed).oldValue) }
            defer { server.shutdown() }
            let file = directory + "/out-\(UUID().uuidString)"
            let status = try await run(file, server.url("/busy"))
            let text = String(decoding: DataPath.read(file) ?? [], as: UTF8.self)
            return Outcome(status: status, output: text, requests: server.requests.count)
        }
        let curlOutcome = try await outcome { file, url in
            try await offPool {
                try ChildProcess.run(curl, ["-s", "-S", "-o", file] + arguments + [url.absoluteString],
                                     logPath: directory + "/curl.log")
            }
        }
        let asiOutcome = try await outcome { file, url in
            let run = try await ASICommandRun.run(["-s", "-S", "-o", file] + arguments + [url.absoluteString])
            return run.status
        }
        return (curlOutcome, asiOutcome)
    }

    static func busy(retryAfter: String) -> LoopbackResponse {
        .status(503, headers: [("Retry-After", retryAfter)], body: Array("busy".utf8))
    }

    @Test func a503WithRetryAfterIsRetriedUntilTheAnswerAsCurlDoes() async throws {
        let (curl, asi) = try await Self.compare(["--retry", "3"]) { n in
            n < 2 ? Self.busy(retryAfter: "1") : .ok("done")
        }
        #expect(curl == Outcome(status: 0, output: "done", requests: 3), "curl: \(curl)")
        #expect(asi == curl, "asi: \(asi), curl: \(curl)")
    }

    @Test func retriesRunOutOnTheLast503AsCurlsDo() async throws {
        let (curl, asi) = try await Self.compare(["--retry", "1", "--retry-delay", "1", "-f"]) { _ in
            Self.busy(retryAfter: "0")
        }
        #expect(curl.status == 22 && curl.requests == 2, "curl: \(curl)")
        #expect(asi == curl, "asi: \(asi), curl: \(curl)")
    }

    @Test func aRetryAfterPastRetryMaxTimeMakesTheResponseFinal() async throws {
        // Retry-After asks for an hour; curl (7.88) then gives up at once instead of waiting past --retry-max-time.
        let (curl, asi) = try await Self.compare(["--retry", "5", "--retry-max-time", "1"]) { _ in
            Self.busy(retryAfter: "3600")
        }
        #expect(curl == Outcome(status: 0, output: "busy", requests: 1), "curl: \(curl)")
        #expect(asi == curl, "asi: \(asi), curl: \(curl)")
    }

    @Test func a404IsRetriedOnlyWithRetryAllErrorsAndFail() async throws {
        let notFound: @Sendable (Int) -> LoopbackResponse = { _ in .status(404, body: Array("gone".utf8)) }
        let (curl, asi) = try await Self.compare(["--retry", "1", "-f"], answer: notFound)
        #expect(curl == Outcome(status: 22, output: "", requests: 1), "curl: \(curl)")
        #expect(asi == curl, "asi: \(asi), curl: \(curl)")
        let (curlAll, asiAll) = try await Self.compare(
            ["--retry", "1", "--retry-delay", "1", "--retry-all-errors", "-f"], answer: notFound)
        #expect(curlAll == Outcome(status: 22, output: "", requests: 2), "curl: \(curlAll)")
        #expect(asiAll == curlAll, "asi: \(asiAll), curl: \(curlAll)")
        let (curlNoFail, asiNoFail) = try await Self.compare(
            ["--retry", "1", "--retry-all-errors"], answer: notFound)
        #expect(curlNoFail == Outcome(status: 0, output: "gone", requests: 1), "curl: \(curlNoFail)")
        #expect(asiNoFail == curlNoFail, "asi: \(asiNoFail), curl: \(curlNoFail)")
    }

    @Test func postIsRetriedAsCurlRetriesEveryMethod() async throws {
        let (curl, asi) = try await Self.compare(["--retry", "2", "-d", "a=1"]) { n in
            n == 0 ? .status(502, body: Array("bad gateway".utf8)) : .ok("posted")
        }
        #expect(curl == Outcome(status: 0, output: "posted", requests: 2), "curl: \(curl)")
        #expect(asi == curl, "asi: \(asi), curl: \(curl)")
    }

    @Test(.enabled(if: HttpbinPeer.shouldRun)) func httpbins503IsRetriedAsOftenByBoth() async throws {
        let curl = try #require(Self.curl, "curl is needed")
        try await withHttpbin { httpbin in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let url = httpbin.url("/status/503").absoluteString
            let arguments = ["-s", "-S", "-v", "-f", "--retry", "2", "-o", "/dev/null", url]
            let log = directory + "/curl.log"
            let curlStatus = try await offPool { try ChildProcess.run(curl, arguments, logPath: log) }
            let curlLog = String(decoding: DataPath.read(log) ?? [], as: UTF8.self)
            let asi = try await ASICommandRun.run(arguments)
            func attempts(_ text: String) -> Int { text.components(separatedBy: "> GET /status/503 ").count - 1 }
            #expect(curlStatus == 22 && attempts(curlLog) == 3, "\(curlLog)")
            #expect(asi.status == curlStatus, "\(asi.stderr)")
            #expect(attempts(asi.stderr) == attempts(curlLog), "\(asi.stderr)")
        }
    }
}
