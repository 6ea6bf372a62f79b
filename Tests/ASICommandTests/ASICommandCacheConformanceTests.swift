import Foundation
import Testing

/// The cache-tests.fyi suite (the 308 tests that apply to a private client cache, `../shared/corpora/cache`) run
/// through `asi --cache`, as issue 13 asks: no required test fails and at least 230 pass.
///
/// It runs only with `ASI_CACHE_CONFORMANCE=1`: 32 `asi` processes at once (the runner sleeps 3 s between many
/// requests, so it runs 32 tests at once to finish in about a minute) would load the machine under the parallel
/// suite's timing-sensitive tests, so `.ci/run` runs it alone after them. The corpus lives beside the repository
/// (`<repo>/../shared/corpora`, or `ASI_CORPORA_DIR`); asked for and missing, the test fails.
@Suite(.enabled(if: CacheConformanceRun.shouldRun))
struct ASICommandCacheConformanceTests {
    @Test func cacheTestsPassThroughAsiCache() throws {
        let run = try CacheConformanceRun.run()
        let failures = run.lines.filter { $0.hasPrefix("fail ") }
        #expect(failures.isEmpty, "required cache tests failed:\n\(failures.joined(separator: "\n"))")
        #expect(run.passed >= 230, "only \(run.passed) of 308 cache tests passed:\n\(run.output)")
    }
}

/// One run of `run_cache.py` against the built `asi`.
struct CacheConformanceRun {
    var output: String
    var lines: [String] { output.split(separator: "\n").map(String.init) }
    /// From the runner's last line, `N passed, M failed`.
    var passed: Int {
        lines.last { $0.hasSuffix("failed") }.flatMap { Int($0.split(separator: " ")[0]) } ?? 0
    }

    static var corpus: String {
        if let directory = ProcessInfo.processInfo.environment["ASI_CORPORA_DIR"] { return directory + "/cache" }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return repository.deletingLastPathComponent().appendingPathComponent("shared/corpora/cache").path
    }

    static var shouldRun: Bool {
        ProcessInfo.processInfo.environment["ASI_CACHE_CONFORMANCE"] == "1"
    }

    static func run() throws -> CacheConformanceRun {
        let script = corpus + "/run_cache.py"
        guard FileManager.default.fileExists(atPath: script) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: script])
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--jobs", "32"]
        var environment = ProcessInfo.processInfo.environment
        environment["ASI_BIN"] = ASICommandRun.binary
        environment["ASI_CACHE_ARGS"] = "--cache {cache}"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CacheConformanceRun(output: String(decoding: data, as: UTF8.self))
    }
}
