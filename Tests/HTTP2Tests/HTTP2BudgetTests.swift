import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// What one request over HTTP/2 may cost, counted rather than timed (as `BudgetTests` does for HTTP/1.1), so the
/// figures cannot drift back: system calls per sequential request (strace counts them), and heap and async-frame
/// allocations per request (`HTTP2RequestBudget` counts them in a child process). Against nginx's cleartext h2 with
/// prior knowledge, so TLS's own costs stay out. A change that raises a figure fails here; one that lowers it
/// should lower the budget in the same commit. `Benchmarks/RESULTS.md` has the history.
@Suite("HTTP/2 request budgets", .enabled(if: HTTP2NginxPeer.shouldRun), .serialized)
struct HTTP2BudgetTests {
    /// The most a request may cost in each counted figure.
    struct Budget: CustomStringConvertible {
        var mallocs: Double
        var taskAllocs: Double
        var taskAllocBytes: Double
        var description: String { "mallocs ≤ \(mallocs), taskAllocs ≤ \(taskAllocs), bytes ≤ \(taskAllocBytes)" }
    }

    /// Budgets per build (decision 0031, fourth addendum): the figures of 2026-11-28 (release 42.4 mallocs, 40.18
    /// async frames, 24,838 bytes; debug 150.0, 72.9, 47,944) with a little room; heap allocations move by about one
    /// per request with which thread wakes first. `ASI_H2_BUDGET_BINARY` names a release build to check the release
    /// figures (`swift build -c release --product HTTP2RequestBudget`).
    static let budgets: [String: [String: Budget]] = [
        "release": [
            "seq": Budget(mallocs: 44, taskAllocs: 41, taskAllocBytes: 25_300),
        ],
        "debug": [
            "seq": Budget(mallocs: 156, taskAllocs: 74.5, taskAllocBytes: 48_500),
        ],
    ]

    /// `ASI_H2_BUDGET_BINARY` (a release build, as apps ship), or the build beside the running tests.
    static let executable: String = {
        if let path = ProcessInfo.processInfo.environment["ASI_H2_BUDGET_BINARY"], !path.isEmpty { return path }
        return siblingExecutable("HTTP2RequestBudget")
    }()

    @Test func allocationsPerSequentialRequestStayWithinTheBudget() async throws {
        try await withHTTP2Nginx { nginx in
            let url = nginx.url("/1k.bin", on: .cleartext).absoluteString
            let output = try await BudgetRun.output(of: Self.executable, ["seq", url, "2000"])
            let fields = try #require(BudgetRun.fields(of: output), "no BUDGET line in: \(output)")
            let build = try #require(fields["build"])
            let budget = try #require(Self.budgets[build]?["seq"])
            let measured = Budget(
                mallocs: try #require(Double(fields["mallocs"] ?? "")),
                taskAllocs: try #require(Double(fields["taskAllocs"] ?? "")),
                taskAllocBytes: try #require(Double(fields["taskAllocBytes"] ?? "")))
            #expect(measured.mallocs <= budget.mallocs, "\(build): \(measured) against \(budget)")
            #expect(measured.taskAllocs <= budget.taskAllocs, "\(build): \(measured) against \(budget)")
            #expect(measured.taskAllocBytes <= budget.taskAllocBytes, "\(build): \(measured) against \(budget)")
            // A count of zero would mean the counter is not in the process: the test could not fail.
            #expect(measured.mallocs >= 1 && measured.taskAllocs >= 1, "the counter saw nothing: \(output)")
        }
    }

    /// System calls per sequential GET over one h2 connection, besides futex: one `sendto` of the request's
    /// `HEADERS` frame, two `recvfrom`s for each segment of the answer (nginx writes `HEADERS` and `DATA` apart; the
    /// second read meets `EAGAIN`), the `epoll_wait`s that report them and the loop's `eventfd` wake-ups (a `write`
    /// and a `read`): about 9.6 on 2026-11-28. A driver woken to write must not try to read a socket it knows is
    /// empty, a body read that brings no `WINDOW_UPDATE` due must not wake the driver, and frames go out in one
    /// write per turn. Counted by strace over runs of N and 3N requests; the difference is 2N requests' worth.
    @Test(.enabled(if: ChildProcess.find("strace") != nil || PeerEnvironment.peersRequired))
    func systemCallsPerSequentialRequestStayWithinTheBudget() async throws {
        let strace = try #require(ChildProcess.find("strace"), "strace is not installed (scripts/install-dependencies.sh)")
        try await withHTTP2Nginx { nginx in
            let url = nginx.url("/1k.bin", on: .cleartext).absoluteString
            let perRequest = try await BudgetRun.systemCallsPerRequest(of: Self.executable, strace: strace) {
                ["seq", url, "\($0)", "--syscalls-only"]
            }
            // Socket writes only: `write` is also the loop's eventfd wake-up.
            let writes = ["sendto", "sendmsg", "writev"].reduce(0) { $0 + perRequest[$1, default: 0] }
            let others = perRequest.filter { $0.key != "futex" }.values.reduce(0, +)
            let listing = BudgetRun.listing(perRequest)
            #expect(writes >= 0.99, "strace saw no writes: \(listing)")
            #expect(writes <= 1.05, "writes per request: \(writes) (\(listing))")
            #expect(others <= 10.5, "system calls besides futex per request: \(others) (\(listing))")
        }
    }
}
