import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// curl's own `.netrc` test cases, run by `../shared/corpora/netrc/run_netrc.py` against the built `asi` (the
/// corpus lives beside the repository: `$(repo)/../shared/corpora`, or `$ASI_CORPORA_DIR`). Skipped when the corpus or
/// python3 is absent, unless ASI_REQUIRE_PEERS=1. Issue 11 asks for at least 12 of the 16 runnable cases; all
/// 16 pass (`Examples/asi/README.md`).
@Suite("asi: curl's .netrc cases")
struct NetrcCorpusTests {
    static let corpora: String = {
        if let path = ProcessInfo.processInfo.environment["ASI_CORPORA_DIR"], !path.isEmpty { return path }
        let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return repository.deletingLastPathComponent().appending(path: "shared/corpora").path(percentEncoded: false)
    }()
    static let script = corpora + "/netrc/run_netrc.py"
    static let isAvailable = access(script, R_OK) == 0 && ChildProcess.find("python3") != nil

    @Test(.enabled(if: isAvailable || PeerEnvironment.peersRequired))
    func everyRunnableCasePasses() async throws {
        let python = try #require(ChildProcess.find("python3"), "python3 is needed for the corpus runner")
        try #require(access(Self.script, R_OK) == 0, "the corpus is not at \(Self.script)")
        let directory = try makeTemporaryDirectory(prefix: "asikit-netrc-corpus")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/log"
        let runner = try ChildProcess(
            executable: python, arguments: [Self.script], logPath: log, environment: ["ASI_BIN": ASICommandRun.binary])
        // Poll instead of waitForExit(): a blocked cooperative thread would slow every other suite.
        while runner.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        let output = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        let summary = try #require(output.split(separator: "\n").last { $0.hasPrefix("netrc:") }, "\(output)")
        let passed = Int(summary.split(separator: " ")[1]) ?? 0
        #expect(passed >= 16, "\(output)")
        #expect(summary.contains(" 0 failed"), "\(output)")
    }
}
