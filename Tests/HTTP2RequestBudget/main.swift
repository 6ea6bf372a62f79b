// The counted side of the HTTP/2 request budget tests (Tests/HTTP2Tests/HTTP2BudgetTests.swift): sends GETs over
// one HTTP/2 connection (cleartext, prior knowledge: TLS's own costs stay out) and prints what each cost in heap
// allocations and async-frame allocations, counted by CAllocationCounter, as RequestBudget does for HTTP/1.1.
//
// Usage: HTTP2RequestBudget MODE URL N [C] [--syscalls-only]
//   seq URL N          N GETs one after another through Client.send, on one stream at a time
//   conc URL N C       N GETs over C tasks, each sending its share in turn: C streams on the one connection
// After a warm-up (which opens the connection and fills the runtime's caches), it runs the mode twice and counts the
// second run only. It prints one line:
//   BUDGET build=release mode=seq requests=N mallocs=M taskAllocs=T taskAllocBytes=B   (per request, two decimals)
// With `--syscalls-only` it runs the mode once after the warm-up and prints nothing: the test runs it under strace
// twice, with N and 3N, and divides the difference.
import CAllocationCounter
import FoundationEssentials
import Glibc
import HTTP2
import HTTPCore
import HTTPPipeline
import SocketTransport

let arguments = CommandLine.arguments.filter { $0 != "--syscalls-only" }
let syscallsOnly = CommandLine.arguments.contains("--syscalls-only")
guard arguments.count >= 4, let url = URL(string: arguments[2]), let n = Int(arguments[3]), n > 0 else {
    fail("usage: HTTP2RequestBudget seq|conc URL N [C] [--syscalls-only]")
}
let mode = arguments[1]
let width = arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1

let transport = POSIXTransport(configuration: .init(
    protocols: [.http2(.init(speaksCleartextWithPriorKnowledge: true))]))
let client = Client(transport: transport)
let request = Request(url: url)

/// One GET through the whole pipeline, checked to have gone over HTTP/2; the body's length.
@Sendable func get() async throws -> Int {
    let response = try await client.send(request)
    guard response.status == .ok, response.head.version == .http2 else {
        fail("status \(response.status.code) over \(response.head.version)")
    }
    return response.body.count
}

func run(_ count: Int) async throws {
    switch mode {
    case "seq":
        for _ in 0..<count { _ = try await get() }
    case "conc":
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<width {
                let share = count / width + (worker < count % width ? 1 : 0)
                group.addTask { for _ in 0..<share { _ = try await get() } }
            }
            try await group.waitForAll()
        }
    default:
        fail("unknown mode \(mode)")
    }
}

do {
    try await run(max(width, 1) * 4)  // warm-up: the connection, the runtime's caches
    if syscallsOnly {
        try await run(n)
    } else {
        try await run(n)
        let before = asikit_allocation_counts_now()
        try await run(n)
        let after = asikit_allocation_counts_now()
        func perRequest(_ value: Int) -> String {
            "\((Double(value) / Double(n) * 100).rounded() / 100)"
        }
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        print("BUDGET build=\(build) mode=\(mode) requests=\(n) mallocs=\(perRequest(after.mallocs - before.mallocs)) "
            + "taskAllocs=\(perRequest(after.taskAllocs - before.taskAllocs)) "
            + "taskAllocBytes=\(perRequest(after.taskAllocBytes - before.taskAllocBytes))")
    }
} catch {
    fail("\(mode) failed: \(error)")
}
try await client.shutdown()

@Sendable func fail(_ message: String) -> Never {
    let line = "HTTP2RequestBudget: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
