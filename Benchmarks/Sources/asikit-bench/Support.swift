import FoundationEssentials
import Glibc
import HTTPCore

/// A failed check in the benchmark itself (wrong status, short body).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum BenchRequest {
    /// The GET every mode starts from; trusts `BENCH_CA_FILE` for https.
    static func make(_ url: URL) -> Request {
        var request = Request(url: url)
        if let caFile = getenv("BENCH_CA_FILE").map({ String(cString: $0) }), !caFile.isEmpty {
            request.options.tls = TLSOptions(trustedCAFile: caFile)
        }
        return request
    }
}

/// Monotonic seconds.
/// The number of threads this process has now (`Threads:` in `/proc/self/status`), for the 1,000-connection row.
func threadCount() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
    return line.flatMap { Int(String($0.filter(\.isNumber))) } ?? 0
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Runs `work` and returns its result with the seconds it took.
func timed(_ work: () async throws -> Int) async rethrows -> (Int, Double) {
    let start = now()
    let result = try await work()
    return (result, now() - start)
}

func fail(_ message: String) -> Never {
    let line = "asikit-bench: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
