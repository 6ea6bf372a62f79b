import FoundationEssentials
import Glibc
import Testing
import TestSupport

/// What one request may cost, counted rather than timed, so the figures cannot drift back unnoticed (as SwiftNIO's
/// allocation tests do): heap allocations, async-frame allocations and their bytes (``RequestBudget`` counts them in
/// a child process against a real nginx), and system calls (strace counts them). A change that raises a figure
/// fails here; one that lowers it should lower the budget in the same commit.
///
/// The figures depend on the build: `scripts/test.sh` builds `RequestBudget` in release mode (as apps ship) and
/// names it in `ASI_BUDGET_BINARY`; a plain `swift test` uses the debug build beside the tests, with its own budgets.
/// `Benchmarks/RESULTS.md` has the history.
@Suite(.enabled(if: NginxPeer.shouldRun), .serialized)
struct RequestBudgetTests {
    /// One budget: the most a request may cost in each counted figure.
    struct Budget: CustomStringConvertible {
        var mallocs: Double
        var taskAllocs: Double
        var taskAllocBytes: Double
        var description: String { "mallocs ≤ \(mallocs), taskAllocs ≤ \(taskAllocs), bytes ≤ \(taskAllocBytes)" }
    }

    /// Budgets per build and mode: the figures of 2026-11-28 (one response head, `Client` one reference; decision
    /// 0032), less the frames taken out the same day (decision 0034: no frame for opening a connection when a pooled
    /// one is checked out, the request writer and the parser's events out of the exchange's frame, the response
    /// reader's rare paths out of its frame, no task allocation for locals of the standard library's resilient types in
    /// the pipeline's loop), less a `Request` of 40 bytes (its method, body, `userInfo` and `tag` behind one
    /// copy-on-write reference: every frame that keeps a request holds 40 bytes instead of 112) and the pipeline loop's
    /// temporaries (its cache stage copies, credential checks, the final response's parts) out of its frame, with a
    /// little room. Async frames are exact from run to run; heap allocations move by up to an allocation per request
    /// with which thread wakes first (a continuation resumed before or after its task suspends), which the room allows
    /// for. One more async call per request on the sequential path fails the release budget, and so do two more
    /// allocations.
    static let budgets: [String: [String: Budget]] = [
        "release": [
            "seq": Budget(mallocs: 15, taskAllocs: 18.5, taskAllocBytes: 15_300),
            "seq-raw": Budget(mallocs: 12.5, taskAllocs: 15.5, taskAllocBytes: 9_600),
            "conc": Budget(mallocs: 15.5, taskAllocs: 20.5, taskAllocBytes: 15_700),
            "queue": Budget(mallocs: 37, taskAllocs: 23.5, taskAllocBytes: 16_700),
        ],
        "debug": [
            "seq": Budget(mallocs: 147, taskAllocs: 36.5, taskAllocBytes: 31_000),
            "seq-raw": Budget(mallocs: 83, taskAllocs: 26.5, taskAllocBytes: 14_800),
            "conc": Budget(mallocs: 148, taskAllocs: 38.5, taskAllocBytes: 31_400),
            "queue": Budget(mallocs: 177, taskAllocs: 40.5, taskAllocBytes: 33_100),
        ],
    ]

    @Test(arguments: ["seq", "seq-raw", "conc", "queue"])
    func allocationsPerRequestStayWithinTheBudget(mode: String) async throws {
        try await withNginx { nginx in
            let width = mode == "conc" || mode == "queue" ? ["16"] : []
            let output = try await Self.runBudget([mode, nginx.url("/1k.bin").absoluteString, "2000"] + width)
            let fields = try #require(Self.fields(of: output), "no BUDGET line in: \(output)")
            let build = try #require(fields["build"])
            let budget = try #require(Self.budgets[build]?[mode])
            let measured = Budget(
                mallocs: try #require(Double(fields["mallocs"] ?? "")),
                taskAllocs: try #require(Double(fields["taskAllocs"] ?? "")),
                taskAllocBytes: try #require(Double(fields["taskAllocBytes"] ?? "")))
            #expect(measured.mallocs <= budget.mallocs, "\(build) \(mode): \(measured) against \(budget)")
            #expect(measured.taskAllocs <= budget.taskAllocs, "\(build) \(mode): \(measured) against \(budget)")
            #expect(measured.taskAllocBytes <= budget.taskAllocBytes, "\(build) \(mode): \(measured) against \(budget)")
            // A count of zero would mean the counter is not in the process: the test could not fail.
            #expect(measured.mallocs >= 1 && measured.taskAllocs >= 1, "the counter saw nothing: \(output)")
        }
    }

    /// System calls per sequential keep-alive GET: one `sendto`, one `recvfrom` and one `epoll_wait` (the head and a
    /// small body arrive in one read), and the futex wake-ups of the hand-off between the event loop and the
    /// request's thread. Counted by strace over runs of N and 3N requests; the difference is 2N requests' worth.
    @Test(.enabled(if: ChildProcess.find("strace") != nil || PeerEnvironment.peersRequired))
    func systemCallsPerSequentialRequestStayWithinTheBudget() async throws {
        let strace = try #require(ChildProcess.find("strace"), "strace is not installed (scripts/install-dependencies.sh)")
        try await withNginx { nginx in
            let url = nginx.url("/1k.bin").absoluteString
            let directory = try makeTemporaryDirectory(prefix: "asikit-budget")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var counts: [[String: Int]] = []
            for n in [1_000, 3_000] {
                let summary = "\(directory)/strace-\(n).txt"
                _ = try await Self.runBudget(["seq", url, "\(n)", "--syscalls-only"], under: [strace, "-f", "-c", "-o", summary])
                counts.append(Self.syscallCounts(in: try String(contentsOfFile: summary, encoding: .utf8)))
            }
            let perRequest = Dictionary(uniqueKeysWithValues: Set(counts[0].keys).union(counts[1].keys).map { name in
                (name, Double((counts[1][name] ?? 0) - (counts[0][name] ?? 0)) / 2_000)
            })
            let futex = perRequest["futex", default: 0]
            let others = perRequest.filter { $0.key != "futex" }.values.reduce(0, +)
            let listing = perRequest.filter { $0.value >= 0.01 }.sorted { $0.key < $1.key }
            #expect(perRequest["sendto", default: 0] >= 0.99, "strace saw no sends: \(listing)")
            #expect(others <= 3.05, "system calls besides futex per request: \(others) (\(listing))")
            // The hand-off's wake-ups depend on which thread sleeps first; 1 to 2 per request, never many.
            #expect(futex <= 3, "futex calls per request: \(futex) (\(listing))")
        }
    }

    /// The `RequestBudget` executable: `ASI_BUDGET_BINARY` (the release build `scripts/test.sh` makes), or the build
    /// beside the running tests.
    static let executable: String = {
        if let path = ProcessInfo.processInfo.environment["ASI_BUDGET_BINARY"], !path.isEmpty { return path }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = String(decoding: buffer[..<max(count, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var directory = URL(filePath: path).deletingLastPathComponent()
        while directory.path(percentEncoded: false).contains(".xctest") { directory.deleteLastPathComponent() }
        return directory.appending(path: "RequestBudget").path(percentEncoded: false)
    }()

    /// Runs `RequestBudget` with `arguments` (behind `prefix`, a tracer) and returns its output; a non-zero exit fails.
    static func runBudget(_ arguments: [String], under prefix: [String] = []) async throws -> String {
        let directory = try makeTemporaryDirectory(prefix: "asikit-budget-run")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let command = prefix + [executable] + arguments
        let child = try ChildProcess(executable: command[0], arguments: Array(command.dropFirst()),
                                     logPath: directory + "/output.txt")
        let status = await child.exited()
        let output = child.logTail
        try #require(status == 0, "\(command.joined(separator: " ")) exited with \(status): \(output)")
        return output
    }

    /// The `key=value` fields of the output's `BUDGET` line.
    static func fields(of output: String) -> [String: String]? {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("BUDGET ") }) else { return nil }
        return Dictionary(line.split(separator: " ").dropFirst().compactMap { field in
            let parts = field.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { _, last in last })
    }

    /// The call counts of a `strace -c` summary, by system call.
    static func syscallCounts(in summary: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in summary.split(separator: "\n") {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            // % time, seconds, usecs/call, calls, [errors,] syscall
            guard columns.count >= 5, Double(columns[0]) != nil, let calls = Int(columns[3]),
                let name = columns.last, name != "total"
            else { continue }
            counts[String(name)] = calls
        }
        return counts
    }
}
