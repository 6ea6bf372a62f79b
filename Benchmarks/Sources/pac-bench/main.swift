import FoundationEssentials
import HTTPCore
import ProxyPAC

#if canImport(Glibc)
import Glibc
#endif

// PAC evaluations per second: `pac-bench FILE URLS N` loads the PAC file once, then evaluates it N times, cycling
// through the URLs, and prints `RESULT client=asikit-pac evals=N seconds=S evals_per_s=R`. Each evaluation is one
// `PACProxyResolver.routes(for:)` (the script call on the engine's thread, the answer parsed into routes), as the
// transport asks before each request.
let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]),
    let urlText = FileManager.default.contents(atPath: arguments[2])
else {
    print("usage: pac-bench FILE URLS N")
    exit(2)
}
let urls = String(decoding: urlText, as: UTF8.self).split(separator: "\n").compactMap { URL(string: String($0)) }
let resolver = PACProxyResolver(source: .file(arguments[1]))
var routes = 0
for url in urls { routes += try await resolver.routes(for: url).count }  // warm-up: loads the script
var start = timespec()
clock_gettime(CLOCK_MONOTONIC, &start)
for index in 0..<count { routes += try await resolver.routes(for: urls[index % urls.count]).count }
var end = timespec()
clock_gettime(CLOCK_MONOTONIC, &end)
let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
let rate = Int(Double(count) / seconds)
print("RESULT client=asikit-pac evals=\(count) seconds=\(seconds) evals_per_s=\(rate) routes=\(routes)")
try await resolver.shutdown()
