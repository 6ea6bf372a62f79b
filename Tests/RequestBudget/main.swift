// The counted side of the request budget tests (Tests/BudgetTests): sends requests to a server and prints what each
// request cost in heap allocations and async-frame allocations, counted by CAllocationCounter.
//
// Usage: RequestBudget MODE URL N [C]
//   seq URL N          N GETs one after another through Client.send (one keep-alive connection)
//   seq-raw URL N      the same straight through the transport, without the pipeline
//   conc URL N C       N GETs over C tasks, each sending its share in turn
//   queue URL N C      N GETs through one RequestQueue of width C
// After a warm-up (which opens the connections and fills the runtime's caches), it runs the mode twice and counts
// the second run only, so one-time costs stay out. It prints one line:
//   BUDGET build=release mode=seq requests=N mallocs=M taskAllocs=T taskAllocBytes=B switches=S preemptions=P
// (per request, two decimals): S counts the process's voluntary context switches (a thread went to sleep: the
// hand-offs between the event loop and the request's thread), P the involuntary ones (getrusage).
// With `--syscalls-only` it runs the mode once after the warm-up and prints nothing: the test runs it under strace
// twice, with N and 3N, and divides the difference.
// With ASIKIT_ALLOCATION_SITES=FILE it also records the call stack of every heap allocation of the counted run and
// writes them to FILE, most frequent first; `Benchmarks/Scripts/allocation-sites.py FILE` names the frames.
import CAllocationCounter
import FoundationEssentials
import Glibc
import HTTPCore
import HTTPPipeline
import SocketTransport

let arguments = CommandLine.arguments.filter { $0 != "--syscalls-only" && !$0.hasPrefix("--ca=") }
let syscallsOnly = CommandLine.arguments.contains("--syscalls-only")
/// `--ca=FILE`: a PEM file of CA certificates to trust for an https URL (the tests' CA).
let caFile = CommandLine.arguments.first { $0.hasPrefix("--ca=") }.map { String($0.dropFirst("--ca=".count)) }
guard arguments.count >= 4, let url = URL(string: arguments[2]), let n = Int(arguments[3]), n > 0 else {
    fail("usage: RequestBudget seq|seq-raw|conc|queue URL N [C] [--syscalls-only] [--ca=FILE]")
}
let mode = arguments[1]
let width = arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1

let transport = POSIXTransport(configuration: .init(maxConnectionsPerHost: max(16, width)))
let client = Client(transport: transport)
let request = {
    var request = Request(url: url)
    if let caFile { request.options.tls = TLSOptions(trustedCAFile: caFile) }
    return request
}()

/// One GET through the whole pipeline; the body's length.
@Sendable func get() async throws -> Int {
    let response = try await client.send(request)
    guard response.status == .ok else { fail("status \(response.status.code)") }
    return response.body.count
}

/// One GET straight through the transport.
@Sendable func getRaw() async throws -> Int {
    let response = try await transport.send(request, context: RequestContext(logger: client.configuration.logger))
    var bytes = 0
    for try await chunk in response.body { bytes += chunk.count }
    return bytes
}

func run(_ count: Int) async throws {
    switch mode {
    case "seq":
        for _ in 0..<count { _ = try await get() }
    case "seq-raw":
        for _ in 0..<count { _ = try await getRaw() }
    case "conc":
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<width {
                let share = count / width + (worker < count % width ? 1 : 0)
                group.addTask { for _ in 0..<share { _ = try await get() } }
            }
            try await group.waitForAll()
        }
    case "queue":
        let queue = RequestQueue(client: client, configuration: .init(maxConcurrentRequests: width))
        let results = queue.results
        for _ in 0..<count { queue.add(request) }
        queue.go()
        var finished = 0
        for await result in results {
            guard try result.response().status == .ok else { fail("a queued request failed") }
            finished += 1
        }
        guard finished == count else { fail("\(finished) of \(count) results") }
    default:
        fail("unknown mode \(mode)")
    }
}

do {
    try await run(max(width, 1) * 4)  // warm-up: connections, the runtime's caches
    if syscallsOnly {
        try await run(n)
    } else {
        try await run(n)
        let sitesPath = ProcessInfo.processInfo.environment["ASIKIT_ALLOCATION_SITES"] ?? ""
        if !sitesPath.isEmpty { asikit_allocation_sites_start() }
        let switchesBefore = contextSwitches()
        let before = asikit_allocation_counts_now()
        try await run(n)
        let after = asikit_allocation_counts_now()
        let switchesAfter = contextSwitches()
        if !sitesPath.isEmpty { asikit_allocation_sites_report(sitesPath, n) }
        func perRequest(_ value: Int) -> String {
            let scaled = (Double(value) / Double(n) * 100).rounded() / 100
            return "\(scaled)"
        }
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        print("BUDGET build=\(build) mode=\(mode) requests=\(n) mallocs=\(perRequest(after.mallocs - before.mallocs)) "
            + "taskAllocs=\(perRequest(after.taskAllocs - before.taskAllocs)) "
            + "taskAllocBytes=\(perRequest(after.taskAllocBytes - before.taskAllocBytes)) "
            + "switches=\(perRequest(switchesAfter.voluntary - switchesBefore.voluntary)) "
            + "preemptions=\(perRequest(switchesAfter.involuntary - switchesBefore.involuntary))")
    }
} catch {
    fail("\(mode) failed: \(error)")
}
try await client.shutdown()

/// The process's context switches so far, over all its threads (those that ended too).
func contextSwitches() -> (voluntary: Int, involuntary: Int) {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return (usage.ru_nvcsw, usage.ru_nivcsw)
}

@Sendable func fail(_ message: String) -> Never {
    let line = "RequestBudget: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
